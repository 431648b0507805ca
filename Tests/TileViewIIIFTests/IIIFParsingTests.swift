import Testing
import TileViewCore
import TileViewIIIF

@Suite struct IIIFParsingTests {
    @Test func regionForms() throws {
        #expect(try IIIFRegion(parsing: "full") == .full)
        #expect(try IIIFRegion(parsing: "square") == .square)
        #expect(try IIIFRegion(parsing: "125,15,120,140") == .pixels(x: 125, y: 15, width: 120, height: 140))
        #expect(try IIIFRegion(parsing: "0,0,1,1") == .pixels(x: 0, y: 0, width: 1, height: 1))
        #expect(try IIIFRegion(parsing: "pct:41.6,7.5,40,70") == .percent(x: 41.6, y: 7.5, width: 40, height: 70))
        #expect(try IIIFRegion(parsing: "pct:0,0,0.5,100") == .percent(x: 0, y: 0, width: 0.5, height: 100))
    }

    @Test func sizeForms() throws {
        let cases: [(String, IIIFSize)] = [
            ("max", IIIFSize(.max)),
            ("^max", IIIFSize(.max, allowsUpscaling: true)),
            ("150,", IIIFSize(.width(150))),
            ("^360,", IIIFSize(.width(360), allowsUpscaling: true)),
            (",150", IIIFSize(.height(150))),
            ("^,240", IIIFSize(.height(240), allowsUpscaling: true)),
            ("pct:50", IIIFSize(.percent(50))),
            ("^pct:120", IIIFSize(.percent(120), allowsUpscaling: true)),
            ("pct:0.5", IIIFSize(.percent(0.5))),
            ("225,100", IIIFSize(.exact(width: 225, height: 100))),
            ("^360,360", IIIFSize(.exact(width: 360, height: 360), allowsUpscaling: true)),
            ("!225,100", IIIFSize(.bestFit(width: 225, height: 100))),
            ("^!360,360", IIIFSize(.bestFit(width: 360, height: 360), allowsUpscaling: true)),
        ]
        for (text, expected) in cases {
            let size = try IIIFSize(parsing: text)
            #expect(size == expected, "\(text)")
            #expect(size.description == text)
        }
    }

    @Test func rotationForms() throws {
        for (text, degrees, mirrored) in [
            ("0", 0, false), ("90", 90, false), ("180", 180, false), ("270", 270, false),
            ("!0", 0, true), ("!90", 90, true), ("!180", 180, true), ("!270", 270, true), ("360", 0, false),
        ] {
            let rotation = try IIIFRotation(parsing: text)
            #expect(rotation.quarterTurnDegrees == degrees, "\(text)")
            #expect(rotation.mirrored == mirrored, "\(text)")
        }
        #expect(try IIIFRotation(parsing: "22.5") == IIIFRotation(degrees: 22.5))
        #expect(try IIIFRotation(parsing: "!345").quarterTurnDegrees == nil)
    }

    @Test func qualityAndFormat() throws {
        for quality in ["default", "color", "gray"] {
            for format in ["jpg", "png", "webp"] {
                let request = try IIIFImageRequest(path: "full/max/0/\(quality).\(format)")
                #expect(request.quality.rawValue == quality)
                #expect(request.format.rawValue == format)
                #expect(request.description == "full/max/0/\(quality).\(format)")
            }
        }
        #expect(IIIFFormat.jpg.mediaType == "image/jpeg")
        #expect(IIIFFormat.png.mediaType == "image/png")
    }

    @Test func wholeRequest() throws {
        let request = try IIIFImageRequest(
            region: "125,15,120,140", size: "90,", rotation: "!90", qualityAndFormat: "gray.png")
        #expect(request.region == .pixels(x: 125, y: 15, width: 120, height: 140))
        #expect(request.size == IIIFSize(.width(90)))
        #expect(request.rotation == IIIFRotation(degrees: 90, mirrored: true))
        #expect(request.quality == .gray)
        #expect(request.format == .png)
    }

    /// Valid syntax that this service does not offer: 501.
    static let notOffered: [String] = [
        "full/max/22.5/default.png", "full/max/!345/gray.jpg", "full/max/45/default.jpg", "full/max/0.5/default.jpg",
        "full/max/0/bitonal.jpg", "full/max/0/default.gif", "full/max/0/default.tif",
        "full/max/0/default.jp2", "full/max/0/default.pdf",
    ]

    /// Not valid syntax: 400.
    static let malformed: [String] = [
        // region
        "/max/0/default.jpg", "Full/max/0/default.jpg", "squares/max/0/default.jpg", "10,10,0,5/max/0/default.jpg",
        "10,10,5,0/max/0/default.jpg", "10,10,5/max/0/default.jpg", "10,10,5,5,5/max/0/default.jpg",
        "-1,0,5,5/max/0/default.jpg", "+1,0,5,5/max/0/default.jpg", "1.5,0,5,5/max/0/default.jpg",
        "a,0,5,5/max/0/default.jpg", "1,,5,5/max/0/default.jpg", " 1,0,5,5/max/0/default.jpg",
        "pct:10,10,0,5/max/0/default.jpg", "pct:10,10,5/max/0/default.jpg", "pct:-1,0,5,5/max/0/default.jpg",
        "pct:1e2,0,5,5/max/0/default.jpg", "pct:1..2,0,5,5/max/0/default.jpg", "pct:.,0,5,5/max/0/default.jpg",
        "pct:nan,0,5,5/max/0/default.jpg", "pct:inf,0,5,5/max/0/default.jpg", "PCT:1,0,5,5/max/0/default.jpg",
        "99999999999999999999,0,5,5/max/0/default.jpg",
        // size
        "full//0/default.jpg", "full/MAX/0/default.jpg", "full/full/0/default.jpg", "full/0,/0/default.jpg",
        "full/,0/0/default.jpg", "full/,/0/default.jpg", "full/0,0/0/default.jpg", "full/pct:0/0/default.jpg",
        "full/pct:/0/default.jpg", "full/pct:-5/0/default.jpg", "full/!100,/0/default.jpg", "full/!,100/0/default.jpg",
        "full/^^max/0/default.jpg", "full/!^100,100/0/default.jpg", "full/,^240/0/default.jpg",
        "full/1.5,/0/default.jpg", "full/100,100,/0/default.jpg", "full/^/0/default.jpg", "full/100/0/default.jpg",
        // rotation
        "full/max//default.jpg", "full/max/361/default.jpg", "full/max/-90/default.jpg", "full/max/!!90/default.jpg",
        "full/max/90!/default.jpg", "full/max/abc/default.jpg", "full/max/1e2/default.jpg",
        // quality and format
        "full/max/0/default", "full/max/0/default.", "full/max/0/.jpg", "full/max/0/best.jpg",
        "full/max/0/Default.jpg", "full/max/0/default.jpeg", "full/max/0/default.JPG", "full/max/0/default.bmp",
        "full/max/0/default.jpg.png",
        // shape
        "full/max/0", "full/max/0/default.jpg/extra", "",
    ]

    @Test func notOfferedIs501() {
        for path in Self.notOffered {
            guard case .failure(let error) = parse(path) else {
                Issue.record("\(path) parsed")
                continue
            }
            #expect(error.status == .notImplemented, "\(path): \(error)")
            #expect(!error.reason.isEmpty && !error.reason.contains("\n"))
        }
    }

    @Test func malformedIs400() {
        #expect(Self.malformed.count >= 40)
        for path in Self.malformed {
            guard case .failure(let error) = parse(path) else {
                Issue.record("\(path) parsed")
                continue
            }
            #expect(error.status == .badRequest, "\(path): \(error)")
            #expect(!error.reason.isEmpty && !error.reason.contains("\n"), "\(path): \(error)")
        }
    }

    @Test func reasonsNameTheBadPart() {
        #expect(
            requestError { () throws(ImageRequestError) in _ = try IIIFRegion(parsing: "10,10,0,5") }?.reason
                == #"region "10,10,0,5": width and height must be greater than 0"#)
        #expect(parse("full/0,/0/default.jpg").failureReason?.hasPrefix(#"size "0,": "#) == true)
        #expect(parse("full/max/22.5/default.jpg").failureReason?.hasPrefix(#"rotation "22.5": "#) == true)
        #expect(parse("full/max/0/bitonal.jpg").failureReason?.hasPrefix(#"quality "bitonal": "#) == true)
        #expect(parse("full/max/0/default.gif").failureReason?.hasPrefix(#"format "gif": "#) == true)
        #expect(parse("full/max/0/default.bmp").failureReason?.hasPrefix(#"format "bmp": "#) == true)
    }

    /// A syntax error in any part is reported before a feature that is not offered.
    @Test func syntaxBeforeNotOffered() {
        #expect(parse("full/0,/22.5/default.gif").failureStatus == .badRequest)
        #expect(parse("full/max/22.5/best.jpg").failureStatus == .badRequest)
    }
}

extension Result where Failure == ImageRequestError {
    var failureReason: String? {
        if case .failure(let error) = self { return error.reason }
        return nil
    }
    var failureStatus: ImageRequestError.Status? {
        if case .failure(let error) = self { return error.status }
        return nil
    }
}
