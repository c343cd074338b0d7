// JSONKit module.
