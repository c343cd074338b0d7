// InkStickerApp module.
