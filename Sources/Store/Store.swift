// Store module.
