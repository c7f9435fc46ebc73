import Foundation
import Hummingbird

/// The small HTML pages the browser lands on after WHOOP's consent screen: plain words, no
/// script, nothing from the request shown back.
enum WhoopPage {
    static var connected: Response {
        page(
            .ok,
            title: "WHOOP is connected",
            text: "WHOOP is connected. You can close this tab; your recovery and sleep reach your devices with their next sync."
        )
    }
    static var missingState: Response {
        problem("This address is incomplete: it has no state (or a cut-off one). Start connecting WHOOP again from the app.")
    }
    static var missingCode: Response { problem("WHOOP sent no authorization code. Start connecting WHOOP again from the app.") }
    static var forgedState: Response {
        refusal("This address was not made by w-diet, so nothing was connected. Start connecting WHOOP again from the app.")
    }
    static var expiredState: Response {
        refusal("This connection attempt has expired (after 10 minutes). Start connecting WHOOP again from the app.")
    }
    static var usedState: Response { refusal("This connection attempt was already used. Start connecting WHOOP again from the app.") }
    static var refused: Response { refusal("You did not allow w-diet to read your WHOOP data, so nothing was connected. You can close this tab.") }
    static var taken: Response {
        page(
            .conflict,
            title: "WHOOP is not connected",
            text: "This WHOOP account is already connected to another w-diet account. Disconnect it there first."
        )
    }
    static var whoopFailed: Response {
        page(
            .badGateway,
            title: "WHOOP is not connected",
            text: "WHOOP did not complete the connection, so nothing was connected. Try again in a few minutes."
        )
    }

    /// The address is incomplete (400).
    private static func problem(_ text: String) -> Response {
        page(.badRequest, title: "WHOOP is not connected", text: text)
    }

    /// A well-formed address that proves nothing, or a refused consent (403): the request is
    /// understood, and refused.
    private static func refusal(_ text: String) -> Response {
        page(.forbidden, title: "WHOOP is not connected", text: text)
    }

    private static func page(_ status: HTTPResponse.Status, title: String, text: String) -> Response {
        let html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title) · w-diet</title></head>
            <body style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 4rem auto; padding: 0 1rem; line-height: 1.5">
            <h1>\(title)</h1><p>\(text)</p></body></html>
            """
        return Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'",
            ],
            body: .init(byteBuffer: ByteBuffer(string: html))
        )
    }
}
