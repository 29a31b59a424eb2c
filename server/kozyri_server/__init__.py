"""``kozyri serve``: the HTTP API, online tables over WebSockets and the web page (extra ``kozyri[serve]``)."""
