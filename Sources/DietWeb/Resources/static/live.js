// Live updates: reloads the page's content when the store changes (issue 16).
