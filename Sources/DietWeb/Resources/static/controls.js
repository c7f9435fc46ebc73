// The progress charts' values on touch, the weight wheel and the 24-hour time fields (issue 16).
