// Values on touch for the progress charts (issue 16).
