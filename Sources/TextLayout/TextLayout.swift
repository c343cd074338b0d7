// TextLayout module.
