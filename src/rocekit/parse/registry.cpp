// placeholder: the tool-id registry
