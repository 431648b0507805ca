import NIOCore
import TileView

/// The line `tileview serve` writes when it starts: where to point a browser, and one image's info.json there.
public enum ServeBanner {
    /// The viewer's URL on this machine for a server bound to `host`: an IPv6 address in brackets, and for every
    /// address (`0.0.0.0`, `::`) the loopback one of the same family (`everyAddress` true).
    public static func localURL(host: String, port: Int, scheme: String = "http") -> (url: String, everyAddress: Bool) {
        let everyAddress = ["0.0.0.0", "::", "[::]", ""].contains(host)
        var local = host
        if everyAddress { local = host == "0.0.0.0" || host.isEmpty ? "127.0.0.1" : "::1" }
        if local.contains(":") && !local.hasPrefix("[") { local = "[\(local)]" }
        return ("\(scheme)://\(local):\(port)/", everyAddress)
    }

    /// The first image the server serves, found as the listing finds it: the root's first image, else the first
    /// image of its sub-folders breadth-first, looking into at most `folderLimit` folders; nil when there is none.
    public static func firstImage(in root: ServeRoot, folderLimit: Int = 64) -> ServedFile? {
        guard let top = root.folder(forIdentifier: "") else { return nil }
        var queue = [top]
        var next = 0
        while next < queue.count, next < folderLimit {
            let contents = root.contents(of: queue[next])
            if let first = contents.images.first { return first }
            queue += contents.folders
            next += 1
        }
        return nil
    }

    /// What to say when the server could not start listening: the port in use, or not ours to take, in words with
    /// the option that fixes it; nil for another error (reported as it is).
    public static func bindFailure(_ error: any Error, host: String, port: Int) -> String? {
        guard let io = error as? IOError else { return nil }
        switch io.errnoCode {
        case ProcessControl.ErrorNumber.addressInUse:
            return "port \(port) is in use on \(host); choose another with --port"
        case ProcessControl.ErrorNumber.permissionDenied:
            return "port \(port) on \(host) needs privileges this process lacks; choose one above 1023 with --port"
        case ProcessControl.ErrorNumber.addressNotAvailable:
            return "\(host) is not an address of this machine; choose another with --host"
        default: return nil
        }
    }

    /// The start-up lines: `tileview: serving ROOT at URL (IIIF: URL/iiif/3/ID/info.json)`, with the note that it
    /// listens on every address, and the public URL when one is set (ids and redirects use it).
    public static func text(
        root: ServeRoot, host: String, port: Int, scheme: String = "http", site: SiteRules = SiteRules()
    ) -> String {
        let (url, everyAddress) = localURL(host: host, port: port, scheme: scheme)
        let base = site.publicURL.map { $0.base + "/" } ?? url
        let example =
            firstImage(in: root).map { "IIIF: \(base)iiif/3/\(ServeRoot.percentEncoded($0.identifier))/info.json" }
            ?? "no image files under it yet"
        var text = "tileview: serving \(root.path) at \(url) (\(example))\n"
        if everyAddress {
            text += "tileview: listening on every address of this machine (--host \(host)), port \(port)\n"
        }
        if let publicURL = site.publicURL {
            text += "tileview: public URL \(publicURL.base)/ (ids and redirects use it; any Host is accepted)\n"
        }
        return text
    }
}
