import Foundation

func format(_ value: Double, _ digits: Int = 1) -> String { value.isNaN ? "-" : String(format: "%.\(digits)f", value) }

/// Medians over photos of one tool's per-photo medians; PSNR and banding
/// over the photos whose output could be read back.
struct Summary {
    var photos: Int
    var milliseconds, cpuMilliseconds, kilobytes, peakRSSMB, psnr, banding: Double

    init?(_ list: [Measurement]) {
        guard !list.isEmpty else { return nil }
        photos = list.count
        milliseconds = median(list.map(\.milliseconds))
        cpuMilliseconds = median(list.map(\.cpuMilliseconds))
        kilobytes = median(list.map { Double($0.bytes) / 1000 })
        peakRSSMB = median(list.map(\.peakRSSMB).filter { !$0.isNaN })
        psnr = median(list.map(\.psnr).filter { !$0.isNaN })
        banding = median(list.map(\.banding).filter { !$0.isNaN })
    }

    static let headers = ["photos", "time ms", "CPU ms", "KB", "peak RSS MB", "PSNR dB", "banding"]
    var cells: [String] {
        [
            "\(photos)", format(milliseconds), format(cpuMilliseconds), format(kilobytes, 0), format(peakRSSMB),
            format(psnr), format(banding, 2),
        ]
    }
}

func measurementCells(_ m: Measurement) -> [String] {
    [
        format(m.milliseconds), format(m.cpuMilliseconds), format(Double(m.bytes) / 1000, 0), format(m.peakRSSMB),
        format(m.psnr), format(m.banding, 2),
    ]
}
