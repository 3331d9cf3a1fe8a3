// swift-tools-version:6.0
import Foundation
import PackageDescription

/// termpic: a photo drawn in the terminal with the TerminalPictures library
/// alone, as another Swift program would use it. It depends on the pxview
/// package two folders up by path; SwiftPM names such a package after its
/// folder, whatever the clone is called, so the name is read from the path.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized
let package = Package(
    name: "termpic",
    dependencies: [.package(path: "../..")],
    targets: [
        .executableTarget(
            name: "termpic",
            dependencies: [.product(name: "TerminalPictures", package: root.lastPathComponent.lowercased())])
    ]
)
