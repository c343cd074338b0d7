print("inksticker")
