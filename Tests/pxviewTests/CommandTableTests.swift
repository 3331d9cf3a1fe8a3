import Foundation
import Testing
import TestSupport
@testable import pxview

/// The table of commands: dispatch, help, completions and the man page all come from it.
@Suite struct CommandTableTests {
    let specs = Commands.all.map { $0.spec }

    @Test func everyCommandHasANameHelpAndItsRowInTheListing() throws {
        let names = specs.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(Array(names.prefix(6)) == ["show", "search", "open", "save", "fav", "cache"])
        let rootHelp = Commands.root.spec.helpText
        for spec in specs {
            #expect(!spec.name.isEmpty && !spec.abstract.isEmpty && !spec.summary.isEmpty, "\(spec.name)")
            #expect(spec.helpText.hasPrefix("usage: pxview \(spec.name)"), "\(spec.name)")
            #expect(spec.options.contains { $0.name == "--help" }, "\(spec.name)")
            #expect(rootHelp.contains("\n  \(spec.listing)"), "\(spec.name)")
            #expect(Commands.named(spec.name)?.spec.name == spec.name)
        }
        #expect(Commands.named("") == nil && Commands.named("frobnicate") == nil)
    }

    /// The list in `pxview --help` is made from the table, aligned as it always was.
    @Test func theRootHelpListsTheTable() {
        #expect(
            Commands.root.spec.helpText.contains(
                """

                commands:
                  show PATH|URL|DIR  view images from files, URLs or a folder
                  search [QUERY]     search Pixabay (or the offline catalog)
                  open ID            view one Pixabay image by id
                  save ID            download one image to a file
                  fav add|rm|list    keep favourites
                  cache info|clear   the disk cache
                  help [COMMAND]     this help, or a command's

                Run 'pxview COMMAND --help' for a command's options.

                """))
    }

    /// Global options may come before the command (`pxview --offline help`),
    /// so every command takes them.
    @Test func everyCommandTakesTheGlobalOptions() {
        let global = Commands.root.spec.options.map(\.name).filter { $0 != "--version" }
        for spec in specs {
            #expect(global.allSatisfy { name in spec.options.contains { $0.name == name } }, "\(spec.name)")
        }
    }
}

/// The commands as a user runs them.
@Suite struct CommandDispatchTests {
    @Test func helpCommandAndHelpFlagAgree() throws {
        let sandbox = try CLISandbox()
        #expect(try sandbox.run(["help"]).out == (try sandbox.run(["--help"])).out)
        #expect(try sandbox.run(["--offline", "help"]).status == 0)
        for command in Commands.all.map({ $0.spec.name }) {
            let help = try sandbox.run(["help", command])
            #expect(help.status == 0)
            #expect(help.out == (try sandbox.run([command, "--help"])).out, "\(command)")
        }
        let unknown = try sandbox.run(["help", "frobnicate"])
        #expect(unknown.status == 2)
        #expect(unknown.errLines == ["pxview: unknown command 'frobnicate'", "Try 'pxview --help'."])
    }

    @Test func unknownCommandsFailAsBefore() throws {
        let sandbox = try CLISandbox()
        for name in ["frobnicate", "", "Show"] {
            let result = try sandbox.run([name])
            #expect(result.status == 2, "\(name)")
            #expect(result.errLines == ["pxview: unknown command '\(name)'", "Try 'pxview --help'."], "\(name)")
            #expect(result.stdout.isEmpty)
        }
    }
}
