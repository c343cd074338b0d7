// OCR module.
