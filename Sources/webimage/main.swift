import WebImage
print("webimage")
