import TileViewCore

/// IIIF Presentation API 3.0 documents for a served folder (docs/design.md section 17): a `Manifest` with one
/// `Canvas` per image, each painted by its Image API 3.0 service, and a `Collection` of a folder's sub-folders and
/// its manifest. Values only: the server fills in the ids (absolute URLs) and the images' sizes.
public enum IIIFPresentation {
    public static let context = "http://iiif.io/api/presentation/3/context.json"

    /// A language map with no language: `{"none": [text]}`.
    public static func label(_ text: String) -> [String: [String]] { ["none": [text]] }

    /// The keys of a Manifest or a Collection.
    enum TopLevelKeys: String, CodingKey {
        case context = "@context"
        case id, type, label, behavior, items
    }

    /// A Manifest's or a Collection's container, its context, id, type and label written (in that order).
    static func topLevel(
        _ encoder: any Encoder, id: String, type: String, label text: String
    ) throws -> KeyedEncodingContainer<TopLevelKeys> {
        var c = encoder.container(keyedBy: TopLevelKeys.self)
        try c.encode(context, forKey: .context)
        try c.encode(id, forKey: .id)
        try c.encode(type, forKey: .type)
        try c.encode(label(text), forKey: .label)
        return c
    }

    /// One image of a manifest: its label, its size, the base URI of its Image API service (`BASE/iiif/3/ID`),
    /// and where its file can be downloaded as stored, with its media type (nil when it cannot).
    public struct Image: Sendable, Equatable {
        public var label: String
        public var size: PixelSize
        public var service: String
        public var original: (url: String, format: String)?

        public init(label: String, size: PixelSize, service: String, original: (url: String, format: String)? = nil) {
            self.label = label
            self.size = size
            self.service = service
            self.original = original
        }

        public static func == (a: Image, b: Image) -> Bool {
            a.label == b.label && a.size == b.size && a.service == b.service && a.original?.url == b.original?.url
                && a.original?.format == b.original?.format
        }
    }

    /// A Manifest of `images` in order, with id `id` (its own URL); canvases are named `CANVASBASE/N` from 1, and
    /// `paged` asks viewers to show them as a book's pages (`behavior: ["paged"]`).
    public struct Manifest: Encodable, Sendable {
        public let id: String
        public let label: String
        public let canvasBase: String
        public let images: [Image]
        public let paged: Bool

        public init(id: String, label: String, canvasBase: String, images: [Image], paged: Bool = false) {
            self.id = id
            self.label = label
            self.canvasBase = canvasBase
            self.images = images
            self.paged = paged
        }

        public func encode(to encoder: any Encoder) throws {
            var c = try IIIFPresentation.topLevel(encoder, id: id, type: "Manifest", label: label)
            if paged { try c.encode(["paged"], forKey: .behavior) }
            try c.encode(
                images.enumerated().map { Canvas(id: "\(canvasBase)/\($0.offset + 1)", image: $0.element) },
                forKey: .items)
        }
    }

    /// A Canvas the size of its image, painted by the image (a body at `full/max` with its Image API service),
    /// with a thumbnail (`!240,240`) and renderings to download: the original file, when known, and the image as a
    /// JPEG at its largest size.
    struct Canvas: Encodable {
        let id: String
        let image: Image

        enum CodingKeys: String, CodingKey { case id, type, label, width, height, thumbnail, rendering, items }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode("Canvas", forKey: .type)
            try c.encode(IIIFPresentation.label(image.label), forKey: .label)
            try c.encode(image.size.width, forKey: .width)
            try c.encode(image.size.height, forKey: .height)
            let service = [ImageService(id: image.service)]
            try c.encode(
                [Resource(id: image.service + "/full/!240,240/0/default.jpg", type: "Image", service: service)],
                forKey: .thumbnail)
            var renderings = [
                Resource(id: image.service + "/full/max/0/default.jpg", type: "Image", label: "JPEG, largest size")
            ]
            if let original = image.original {
                renderings.insert(
                    Resource(id: original.url, type: "Image", format: original.format, label: "Original file"), at: 0)
            }
            try c.encode(renderings, forKey: .rendering)
            let painting = Annotation(
                id: id + "/page/annotation",
                body: Resource(
                    id: image.service + "/full/max/0/default.jpg", type: "Image", size: image.size, service: service),
                target: id)
            try c.encode([AnnotationPage(id: id + "/page", items: [painting])], forKey: .items)
        }
    }

    struct ImageService: Encodable {
        let id: String
        let type = "ImageService3"
        let profile = "level2"
    }

    /// An external resource: an image (JPEG) with its size, label and service where it has them.
    struct Resource: Encodable {
        let id: String
        let type: String
        var format = "image/jpeg"
        var label: String? = nil
        var size: PixelSize? = nil
        var service: [ImageService]? = nil

        enum CodingKeys: String, CodingKey { case id, type, format, label, width, height, service }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(type, forKey: .type)
            try c.encode(format, forKey: .format)
            if let label { try c.encode(IIIFPresentation.label(label), forKey: .label) }
            if let size {
                try c.encode(size.width, forKey: .width)
                try c.encode(size.height, forKey: .height)
            }
            if let service { try c.encode(service, forKey: .service) }
        }
    }

    struct AnnotationPage: Encodable {
        let id: String
        let type = "AnnotationPage"
        let items: [Annotation]
    }

    struct Annotation: Encodable {
        let id: String
        let type = "Annotation"
        let motivation = "painting"
        let body: Resource
        let target: String
    }

    /// A Collection: its label and its members (sub-folders' collections, then the folder's manifest).
    public struct Collection: Encodable, Sendable {
        public struct Member: Encodable, Sendable {
            public let id: String
            public let type: String
            public let label: [String: [String]]

            /// A member Collection or Manifest, named by its URL.
            public init(id: String, manifest: Bool, label: String) {
                self.id = id
                self.type = manifest ? "Manifest" : "Collection"
                self.label = IIIFPresentation.label(label)
            }
        }

        public let id: String
        public let label: String
        public let members: [Member]

        public init(id: String, label: String, members: [Member]) {
            self.id = id
            self.label = label
            self.members = members
        }

        public func encode(to encoder: any Encoder) throws {
            var c = try IIIFPresentation.topLevel(encoder, id: id, type: "Collection", label: label)
            try c.encode(members, forKey: .items)
        }
    }
}
