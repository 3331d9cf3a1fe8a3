print("pxview")
