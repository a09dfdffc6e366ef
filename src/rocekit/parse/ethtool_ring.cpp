// placeholder: filled by the parser's author
