import Hummingbird

/// The HTML pages the server writes (the listing, the viewer's pages, the login form): a page around its body, and
/// text made safe inside it.
enum HTMLPage {
    /// An HTML page around `body`.
    static func response(title: String, body: String) -> Response {
        response(ResponseBody(byteBuffer: ByteBuffer(string: document(title: title, body: body))))
    }

    /// A page of HTML already made.
    static func response(_ page: ResponseBody) -> Response {
        Response(
            status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"], body: page)
    }

    /// The HTML of a page around `body`.
    static func document(title: String, body: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1, user-scalable=no">
        <title>\(escaped(title)) - tileview</title>
        <link rel="stylesheet" href="/viewer/viewer.css">
        </head>
        <body>
        \(body)
        </body>
        </html>

        """
    }

    /// `text` safe inside HTML text and double-quoted attributes.
    static func escaped(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }
}
