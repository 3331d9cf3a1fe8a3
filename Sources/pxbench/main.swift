print("pxbench")
