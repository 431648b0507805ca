import FoundationEssentials
import Hummingbird
import TileView

/// The bodies the view API takes (unknown keys are refused, as the OpenAPI document says) and how they are read:
/// 400 with the decoder's reason for a body that is not the JSON its route takes.
enum ViewRequest {
    /// What `POST /api/views` takes. Unknown keys are refused, as the OpenAPI document says.
    struct CreateView: Decodable {
        struct Viewport: Decodable {
            let width: Int
            let height: Int

            enum CodingKeys: String, CodingKey, CaseIterable { case width, height }

            init(from decoder: any Decoder) throws {
                try ViewRequest.refuseUnknownKeys(decoder, CodingKeys.self)
                let c = try decoder.container(keyedBy: CodingKeys.self)
                width = try c.decode(Int.self, forKey: .width)
                height = try c.decode(Int.self, forKey: .height)
            }
        }

        /// A page to start on: a name as listed, or an index from 0 (a number or a string).
        struct Start: Decodable {
            let text: String
            init(from decoder: any Decoder) throws {
                let c = try decoder.singleValueContainer()
                if let index = try? c.decode(Int.self) {
                    text = String(index)
                } else if let number = try? c.decode(Double.self) {
                    text = String(number)  // not a page index (too large, or a fraction): "not found"
                } else {
                    text = try c.decode(String.self)
                }
            }
        }

        let image: String?
        let folder: String?
        let viewport: Viewport
        let circular: Bool?
        let peek: Int?
        let gap: Int?
        let start: Start?
        let maxScale: Double?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case image, folder, viewport, circular, peek, gap, start, maxScale
        }

        init(from decoder: any Decoder) throws {
            try ViewRequest.refuseUnknownKeys(decoder, CodingKeys.self)
            let c = try decoder.container(keyedBy: CodingKeys.self)
            // A key may be left out, but not given as null (the schema has no nulls).
            func optional<T: Decodable>(_ type: T.Type, _ key: CodingKeys) throws -> T? {
                c.contains(key) ? try c.decode(type, forKey: key) : nil
            }
            image = try optional(String.self, .image)
            folder = try optional(String.self, .folder)
            viewport = try c.decode(Viewport.self, forKey: .viewport)
            circular = try optional(Bool.self, .circular)
            peek = try optional(Int.self, .peek)
            gap = try optional(Int.self, .gap)
            start = try optional(Start.self, .start)
            maxScale = try optional(Double.self, .maxScale)
        }
    }

    /// A body of one text field, `{"KEY": TEXT}`, its key the one case of `Key`; any other key is refused.
    struct TextBody<Key: CodingKey & CaseIterable>: Decodable {
        let text: String
        init(from decoder: any Decoder) throws {
            try ViewRequest.refuseUnknownKeys(decoder, Key.self)
            text = try decoder.container(keyedBy: Key.self).decode(String.self, forKey: Key.allCases.first!)
        }
    }

    enum GestureKey: String, CodingKey, CaseIterable { case gesture }
    enum MoveKey: String, CodingKey, CaseIterable { case move }
    /// `{"gesture": TEXT}`.
    typealias GestureBody = TextBody<GestureKey>
    /// `{"move": TEXT}`.
    typealias MoveBody = TextBody<MoveKey>

    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Throws when the object being decoded has a key `Keys` does not list.
    static func refuseUnknownKeys<Keys: CodingKey & CaseIterable>(_ decoder: any Decoder, _ keys: Keys.Type) throws {
        let known = Set(Keys.allCases.map(\.stringValue))
        let c = try decoder.container(keyedBy: AnyKey.self)
        if let extra = c.allKeys.first(where: { !known.contains($0.stringValue) }) {
            throw DecodingError.dataCorrupted(
                .init(codingPath: c.codingPath + [extra], debugDescription: "is not a key this object takes"))
        }
    }

    /// The JSON body of a request as `T`; 400 with the decoder's reason when it is not.
    static func decodeBody<T: Decodable>(_ type: T.Type, _ request: Request) async throws(ViewError) -> T {
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: ServeSettings.maxRequestBodyBytes)
        } catch {
            throw .badRequest("the request body could not be read (at most \(ServeSettings.maxRequestBodyBytes) bytes)")
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            throw .badRequest("the request body is not the JSON this route takes: \(Self.describe(error))")
        } catch {
            throw .badRequest("the request body is not JSON: \(error)")
        }
    }

    /// A decoding error in one line: what was wrong and where.
    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.isEmpty
                ? "the body"
                : "\"" + keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".") + "\""
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context.codingPath + [key])) is missing"
        case .typeMismatch(let type, let context): return "\(path(context.codingPath)) must be of type \(type)"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)) must be of type \(type), not null"
        case .dataCorrupted(let context): return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }

    /// A move (`next`, `prev`, `left`, `right`, `up`, `down`, `goto N`) or a drag between pages (`drag DX,DY velocity
    /// VX,VY`); 400 with the command line's message for anything else.
    static func parseMove(_ text: String) throws(ViewError) -> GalleryAction {
        let trimmed = text.drop(while: \.isWhitespace)
        if trimmed.hasPrefix("drag") {
            do throws(GalleryActionParseError) {
                return try GalleryAction(parsing: text)
            } catch {
                throw .badRequest("\(error)")
            }
        }
        let moves: PageMoveList
        do throws(PageMoveError) {
            moves = try PageMoveList(parsing: text)
        } catch {
            throw .badRequest("\(error)")
        }
        guard moves.count == 1, let move = moves.first else {
            throw .badRequest("give one move per request, got \(moves.count)")
        }
        return .move(move)
    }
}
