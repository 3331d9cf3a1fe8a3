// The benchmark driver is written once the pipeline lands (issue 2).
print("pxbench: not built yet")
