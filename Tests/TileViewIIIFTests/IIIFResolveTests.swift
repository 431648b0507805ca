import Testing
import TileViewCore
import TileViewIIIF

/// The examples of the Image API 3.0 sections 4.1 to 4.3, on the spec's 300 x 200 image.
@Suite struct IIIFResolveTests {
    let image = PixelSize(width: 300, height: 200)

    func region(_ text: String) throws -> PixelRect {
        try resolve("\(text)/max/0/default.jpg", image).get().region
    }

    func size(_ text: String, _ limits: IIIFLimits = IIIFLimits()) throws -> PixelSize {
        try resolve("full/\(text)/0/default.jpg", image, limits).get().scaledSize
    }

    @Test func regionExamples() throws {
        #expect(try region("full") == PixelRect(x: 0, y: 0, width: 300, height: 200))
        #expect(try region("square") == PixelRect(x: 50, y: 0, width: 200, height: 200))
        #expect(try region("125,15,120,140") == PixelRect(x: 125, y: 15, width: 120, height: 140))
        #expect(try region("pct:41.6,7.5,40,70") == PixelRect(x: 125, y: 15, width: 120, height: 140))
        // Cropped at the image's edge: the spec's returned image is 175,185.
        #expect(try region("125,15,200,200") == PixelRect(x: 125, y: 15, width: 175, height: 185))
        #expect(try region("pct:41.6,7.5,66.6,100") == PixelRect(x: 125, y: 15, width: 175, height: 185))
        #expect(
            try resolve("square/max/0/default.jpg", PixelSize(width: 3, height: 8)).get().region
                == PixelRect(x: 0, y: 2, width: 3, height: 3))
    }

    @Test func regionOutsideIs400() {
        for text in ["300,0,10,10", "0,200,10,10", "400,400,5,5", "pct:100,0,10,10", "pct:0,100,10,10"] {
            #expect(resolve("\(text)/max/0/default.jpg", image).failureStatus == .badRequest, "\(text)")
        }
        #expect(resolve("299,199,10,10/max/0/default.jpg", image).failureStatus == nil)
        #expect(
            try! resolve("pct:0,0,0.01,0.01/max/0/default.jpg", image).get().region
                == PixelRect(x: 0, y: 0, width: 1, height: 1))
    }

    /// Found by the malformed-request run of `scripts/load-serve.sh`: each of these trapped on an integer
    /// conversion and killed the server.
    @Test func hugeSizesAre400NotATrap() {
        let huge = [
            "square/9223372036854775807,", "full/,9223372036854775807", "full/pct:100000000000000000000",
            "full/^9223372036854775807,", "full/^,9223372036854775807", "full/^pct:1e300",
            "full/^9223372036854775807,9223372036854775807", "full/!9223372036854775807,9223372036854775807",
            "full/^!9223372036854775807,9223372036854775807", "full/^1073741825,", "full/^,2000000000",
            "pct:0.000000001,0,0.000000001,1/^4611686018427387904,",
            "pct:0.000000001,0,0.000000001,1/4611686018427387904,",
        ]
        for text in huge {
            let status = resolve("\(text)/0/default.jpg", image, IIIFLimits(maxArea: nil)).failureStatus
            #expect(status == .badRequest, "\(text)")
            #expect(resolve("\(text)/0/default.jpg", image).failureStatus == .badRequest, "\(text)")
        }
    }

    @Test func sizeExamples() throws {
        #expect(try size("max", IIIFLimits(maxArea: nil, maxWidth: 200)) == PixelSize(width: 200, height: 133))
        #expect(try size("^max", IIIFLimits(maxArea: nil, maxWidth: 360)) == PixelSize(width: 360, height: 240))
        #expect(try size("max") == PixelSize(width: 300, height: 200))
        #expect(try size("150,") == PixelSize(width: 150, height: 100))
        #expect(try size("^360,") == PixelSize(width: 360, height: 240))
        #expect(try size(",150") == PixelSize(width: 225, height: 150))
        #expect(try size("^,240") == PixelSize(width: 360, height: 240))
        #expect(try size("pct:50") == PixelSize(width: 150, height: 100))
        #expect(try size("^pct:120") == PixelSize(width: 360, height: 240))
        #expect(try size("225,100") == PixelSize(width: 225, height: 100))
        #expect(try size("^360,360") == PixelSize(width: 360, height: 360))
        #expect(try size("!225,100") == PixelSize(width: 150, height: 100))
        #expect(try size("^!360,360") == PixelSize(width: 360, height: 240))
        // A box larger than the region gives the region at its own size (section 4.2: "as large as possible but
        // not larger than the extracted region, w or h"); with ^ it is filled.
        #expect(try size("!1000,1000") == PixelSize(width: 300, height: 200))
        #expect(try size("!301,201") == PixelSize(width: 300, height: 200))
        #expect(try size("^!1000,1000") == PixelSize(width: 1000, height: 667))
        #expect(try size("!1000,150") == PixelSize(width: 225, height: 150))
        // The order-of-implementation example: 125,15,120,140 at 90, gives 90 x 105.
        #expect(
            try resolve("125,15,120,140/90,/!0/gray.jpg", image).get().scaledSize == PixelSize(width: 90, height: 105))
    }

    @Test(
        "every size form on a region smaller than the box or size asked: !w,h and max give the region, the others 400")
    func regionsSmallerThanTheBox() throws {
        // A 120x80 image, as a listing's thumbnail (!240,240) or a viewer's first paint (!512,512) asks for it.
        let small = PixelSize(width: 120, height: 80)
        func resolved(_ text: String) -> Result<IIIFResolved, ImageRequestError> {
            resolve("full/\(text)/0/default.jpg", small)
        }
        for box in ["!240,240", "!512,512", "!120,80", "!121,1000", "!100000,100000"] {
            #expect(try resolved(box).get().scaledSize == small, "\(box)")
        }
        #expect(try resolved("!60,60").get().scaledSize == PixelSize(width: 60, height: 40))
        #expect(try resolved("max").get().scaledSize == small)
        for text in ["240,", ",160", "240,160", "pct:200", "121,80"] {
            #expect(resolved(text).failureStatus == .badRequest, "\(text)")
        }
        for (text, size) in [
            ("^240,", (240, 160)), ("^,160", (240, 160)), ("^!240,240", (240, 160)), ("^pct:200", (240, 160)),
        ] {
            #expect(try resolved(text).get().scaledSize == PixelSize(width: size.0, height: size.1), "\(text)")
        }
        // A region of a larger image smaller than the box: the same.
        #expect(
            try resolve("10,10,30,20/!256,256/0/default.jpg", image).get().scaledSize
                == PixelSize(width: 30, height: 20))
    }

    @Test func upscalingWithoutCaretIs400() {
        for text in ["301,", ",201", "pct:120", "pct:100.5", "301,200", "300,201", "^pct:0.1"] {
            #expect(resolve("full/\(text)/0/default.jpg", image).failureStatus == .badRequest, "\(text)")
        }
    }

    @Test func limits() throws {
        let limits = IIIFLimits(maxArea: 10_000, maxWidth: 150, maxHeight: 80)
        #expect(try size("max", limits) == PixelSize(width: 120, height: 80))
        #expect(try size("^max", limits) == PixelSize(width: 120, height: 80))
        #expect(try size("!300,300", limits) == PixelSize(width: 120, height: 80))
        #expect(resolve("full/151,/0/default.jpg", image, limits).failureStatus == .badRequest)
        #expect(resolve("full/,81/0/default.jpg", image, limits).failureStatus == .badRequest)
        #expect(resolve("full/150,80/0/default.jpg", image, limits).failureStatus == .badRequest)
        #expect(try size("120,80", limits) == PixelSize(width: 120, height: 80))
        let area = IIIFLimits(maxArea: 6000)
        let fitted = try size("max", area)
        #expect(fitted.pixelCount <= 6000 && fitted.width == 94 && fitted.height == 63)
        // maxWidth alone limits the height as well.
        #expect(try size("^max", IIIFLimits(maxArea: nil, maxWidth: 100)) == PixelSize(width: 100, height: 66))
        #expect(
            try resolve(
                "full/max/0/default.jpg", PixelSize(width: 100, height: 500), IIIFLimits(maxArea: nil, maxWidth: 100)
            )
            .get().scaledSize == PixelSize(width: 20, height: 100))
    }

    @Test func rotationSwapsOutputSize() throws {
        for (rotation, output) in [
            ("0", PixelSize(width: 150, height: 100)), ("90", PixelSize(width: 100, height: 150)),
            ("!180", PixelSize(width: 150, height: 100)), ("!270", PixelSize(width: 100, height: 150)),
        ] {
            let resolved = try resolve("full/150,/\(rotation)/default.png", image).get()
            #expect(resolved.outputSize == output, "\(rotation)")
            #expect(resolved.mirrored == rotation.hasPrefix("!"))
            #expect(resolved.scaledSize == PixelSize(width: 150, height: 100))
        }
    }

    @Test func requestBuiltFromPartsStillRefusesWhatIsNotOffered() {
        let request = IIIFImageRequest(
            region: .full, size: IIIFSize(.max), rotation: IIIFRotation(degrees: 45), quality: .default,
            format: .jpg)
        #expect(
            requestError { () throws(ImageRequestError) in _ = try request.resolve(imageSize: image) }?.status
                == .notImplemented)
    }
}
