import Foundation
import TestSupport
import Testing

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

    @Test func theRootHelpSaysWhatACLocaleGets() {
        #expect(Commands.root.spec.helpText.contains("\nIn a C locale (LANG=C) the grid and the viewer draw in ASCII alone.\n"))
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
                  doctor             what pxview found out about the terminal, and how to get real pixels
                  clear              take pxview's preview picture away (a file manager's cleaner)
                  completions SHELL  shell completions (bash, zsh or fish)
                  man                the manual page (roff)
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

    @Test func everyCommandIsInEveryCompletionScriptAndTheManPage() {
        let scripts = CompletionScripts()
        let man = ManPage().text
        for spec in specs {
            #expect(scripts.bash.contains("\n        \(spec.name))\n"), "\(spec.name)")
            #expect(scripts.zsh.contains("\n        '\(spec.name):"), "\(spec.name)")
            #expect(scripts.zsh.contains("\n        \(spec.name))\n"), "\(spec.name)")
            #expect(scripts.fish.contains("-n __pxview_using -a \(spec.name) -d"), "\(spec.name)")
            #expect(scripts.fish.contains("\n# pxview \(spec.name)\n"), "\(spec.name)")
            #expect(man.contains("\n.SS \(spec.name)\n.B \"pxview \(spec.name)\"\n"), "\(spec.name)")
        }
    }

    /// A new row is all the generators need: a made-up command shows up in each.
    @Test func aNewRowReachesTheScriptsAndTheManPage() {
        let zap = CommandSpec(
            name: "zap", abstract: "zap things", arguments: "THING", usage: "pxview zap THING [--hard]",
            summary: "Zaps a thing.",
            options: [
                OptionSpec(name: "--hard", help: "zap hard"),
                OptionSpec(name: "--mode", valueName: "M", help: "how", completion: .words(["fast", "slow"])),
            ],
            maxPositionals: 1, positionals: .files)
        let scripts = CompletionScripts(root: Commands.root.spec, commands: specs + [zap])
        #expect(scripts.bash.contains("\n                --mode) _pxview_words 'fast slow'; return ;;\n"))
        #expect(scripts.zsh.contains("\n        'zap:zap things'\n"))
        #expect(scripts.zsh.contains("\n            '--mode=[how]:M:(fast slow)' \\\n"))
        #expect(scripts.fish.contains("\ncomplete -c pxview -n '__pxview_using zap' -l mode -x -a 'fast slow' -d 'how'\n"))
        #expect(scripts.fish.contains("\ncomplete -c pxview -n '__pxview_using zap' -F\n"))
        let man = ManPage(root: Commands.root.spec, commands: specs + [zap], version: "9").text
        #expect(man.contains("\n.SS zap\n.B \"pxview zap\"\nTHING [\\-\\-hard]\n.PP\nZaps a thing.\n"))
        #expect(man.contains("\n.TP\n\\fB\\-\\-mode\\fR \\fIM\\fR\nhow\n"))
    }
}

/// The key lines of each script, as a shell reads them.
@Suite struct CompletionScriptTests {
    let scripts = CompletionScripts()

    @Test func bashKeyLines() {
        let bash = scripts.bash
        #expect(bash.hasSuffix("\ncomplete -F _pxview pxview\n"))
        for line in [
            "        \"\")",
            "            elif ((positionals == 0)); then _pxview_words 'show search open save fav cache doctor clear completions man help'",
            "                --protocol) _pxview_words 'auto kitty sixel symbols blocks'; return ;;",
            "                --fit) _pxview_words 'contain cover down'; return ;;",
            "                --bg) _pxview_words 'auto none checker black white gray'; return ;;",
            "                --size) _pxview_words 'preview web large'; return ;;",
            "                --out|-o) _pxview_files; return ;;",
            "            elif ((positionals == 0)); then _pxview_words 'add rm list'",
            "            elif ((positionals == 0)); then _pxview_words 'bash zsh fish'",
        ] {
            #expect(bash.contains("\n" + line + "\n"), "\(line)")
        }
        // show completes files, open (an id) nothing.
        #expect(
            bash.contains(
                "--output-marked -o --out --help -h'\n            else _pxview_files\n            fi ;;\n        search)"))
        #expect(bash.contains("--help -h'\n            fi ;;\n        save)"))
    }

    @Test func zshKeyLines() {
        let zsh = scripts.zsh
        #expect(zsh.hasPrefix("#compdef pxview\n"))
        #expect(zsh.hasSuffix("\n_pxview \"$@\"\n"))
        for line in [
            "    '--protocol=[auto|kitty|sixel|symbols|blocks (default auto, or $PXVIEW_PROTOCOL); symbols and blocks draw text, the best block character per cell or half-blocks]:P:(auto kitty sixel symbols blocks)' \\",
            "    '(--help -h)-h[show this help]' \\",
            "        'show:view images from files, URLs or a folder'",
            "        'help:this help, or a command'\\''s'",
            "            '--fit=[contain|cover|down (default contain)]:MODE:(contain cover down)' \\",
            "            '(--out -o)-o[file (or existing directory) to write]:PATH:_files' \\",
            "            '*:file:_files' ;;",
            "            '1:argument:(add rm list)' \\",
            "            '*:argument: ' ;;",
        ] {
            #expect(zsh.contains("\n" + line + "\n"), "\(line)")
        }
    }

    @Test func fishKeyLines() {
        let fish = scripts.fish
        for line in [
            "complete -c pxview -f",
            "complete -c pxview -n __pxview_using -a show -d 'view images from files, URLs or a folder'",
            "complete -c pxview -n __pxview_using -a help -d 'this help, or a command\\'s'",
            "complete -c pxview -n __pxview_using -l protocol -x -a 'auto kitty sixel symbols blocks' -d 'auto|kitty|sixel|symbols|blocks (default auto, or $PXVIEW_PROTOCOL); symbols and blocks draw text, the best block character per cell or half-blocks'",
            "complete -c pxview -n '__pxview_using show' -l fit -x -a 'contain cover down' -d 'contain|cover|down (default contain)'",
            "complete -c pxview -n '__pxview_using show' -l interactive -s i -d 'the viewer (the default on a terminal; kept for scripts)'",
            "complete -c pxview -n '__pxview_using show' -F",
            "complete -c pxview -n '__pxview_using save' -l out -s o -r -F -d 'file (or existing directory) to write'",
            "complete -c pxview -n '__pxview_using fav 0' -a 'add rm list'",
        ] {
            #expect(fish.contains("\n" + line + "\n"), "\(line)")
        }
    }

    @Test func bashReadsTheBashScript() throws {
        let result = try runShell("/bin/bash", ["-n", "/dev/stdin"], input: scripts.bash)
        #expect(result.status == 0, "\(result.output)")
    }

    /// The script in a real bash: what TAB offers after each command line.
    @Test func bashCompletesWhatTheTableSays() throws {
        let cases: [(words: [String], offered: String)] = [
            (["pxview", ""], "show search open save fav cache doctor clear completions man help"),
            (["pxview", "s"], "show search save"),
            (["pxview", "--protocol", "k"], "kitty"),
            (["pxview", "--protocol", "kitty", "op"], "open"),
            (["pxview", "show", "--fi"], "--fit"),
            (["pxview", "show", "--fit", "c"], "contain cover"),
            (["pxview", "show", "--fit", "=", "co"], "contain cover"),
            (["pxview", "search", "--ord"], "--order"),
            (["pxview", "fav", ""], "add rm list"),
            (["pxview", "fav", "add", ""], ""),
            (["pxview", "open", "--size", "10x10", ""], ""),
            (["pxview", "help", "c"], "cache clear completions"),
            (["pxview", "completions", ""], "bash zsh fish"),
            (["pxview", "show", "SCRATCH/ph"], "SCRATCH/photo.jpg"),
            (["pxview", "save", "1", "-o", "SCRATCH/ph"], "SCRATCH/photo.jpg"),
            // A name holding a newline is one candidate, not two.
            (["pxview", "show", "SCRATCH/two"], "SCRATCH/two<NL>lines.jpg"),
        ]
        let scratch = try TemporaryDirectory()
        #expect(FileManager.default.createFile(atPath: scratch.file("photo.jpg"), contents: Data()))
        #expect(FileManager.default.createFile(atPath: scratch.file("two\nlines.jpg"), contents: Data()))
        let quoted = { (word: String) in "'" + word.replacingOccurrences(of: "SCRATCH", with: scratch.path) + "'" }
        var script = scripts.bash + "\n"
        for (words, _) in cases {
            script += "COMP_WORDS=(\(words.map(quoted).joined(separator: " "))); COMP_CWORD=\(words.count - 1); COMPREPLY=()\n"
            // A newline inside a candidate shows as <NL>, so lines stay lines.
            script += "_pxview; echo \"${COMPREPLY[*]//$'\\n'/<NL>}\"\n"
        }
        let result = try runShell("/bin/bash", ["--norc", "/dev/stdin"], input: script)
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (index, (words, offered)) in cases.enumerated() {
            let expected = offered.replacingOccurrences(of: "SCRATCH", with: scratch.path)
            #expect(index < lines.count && lines[index] == expected, "\(words)")
        }
    }

    /// zsh and fish check their scripts' syntax where they are installed.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh")))
    func zshReadsTheZshScript() throws {
        let result = try runShell("/usr/bin/zsh", ["-n", "/dev/stdin"], input: scripts.zsh)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/fish")))
    func fishCompletesWhatTheTableSays() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("pxview.fish")
        try scripts.fish.write(toFile: path, atomically: true, encoding: .utf8)
        let script =
            "source \(path); complete -C 'pxview show --fit '; complete -C 'pxview fav '; complete -C 'pxview help show '"
        let result = try runShell("/usr/bin/fish", ["--no-config", "-c", script], input: "")
        #expect(result.status == 0, "\(result.output)")
        #expect(
            result.output.split(separator: "\n").map { String($0.split(separator: "\t")[0]) } == [
                "contain", "cover", "down", "add", "list", "rm",
            ])
    }
}

@Suite struct ManPageTests {
    let page = ManPage().text

    @Test func headerAndSections() {
        #expect(page.hasPrefix(".\\\" pxview.1: made by `pxview man` from pxview's table of commands.\n"))
        #expect(
            page.contains(
                "\n.TH PXVIEW 1 \"\" \"pxview \(Commands.version)\" \"User Commands\"\n.SH NAME\n"
                    + "pxview \\- real photos inside a terminal: sixel, kitty graphics or text\n.SH SYNOPSIS\n"
                    + ".B \"pxview\"\n[OPTIONS] [COMMAND] [ARGS...]\n.br\n.B \"pxview show\"\n[OPTIONS] PATH|URL|DIR...\n"))
        let sections = page.split(separator: "\n").filter { $0.hasPrefix(".SH ") }
        #expect(
            sections == [
                ".SH NAME", ".SH SYNOPSIS", ".SH DESCRIPTION", ".SH COMMANDS", ".SH OPTIONS", ".SH KEYS",
                ".SH EXIT STATUS", ".SH ENVIRONMENT", ".SH SEE ALSO",
            ])
        #expect(page.contains("\n.SS \"keys in the grid\"\n.TP\n.B arrows, h j k l\nmove the selection\n"))
        // A folder's grid has keys of its own: no pages to load, no favourites.
        let folder = page.components(separatedBy: "\n.SS \"keys in a folder's grid\"\n").last ?? ""
        #expect(folder.contains(".B Home, End (g, G)\nfirst, last photo\n"))
        #expect(!(folder.components(separatedBy: "\n.SH ").first ?? "").contains("favourite"))
        #expect(page.contains("\n.TP\n.B PXVIEW_PROTOCOL\nauto, kitty, sixel, symbols or blocks, as \\-\\-protocol\n"))
        #expect(page.contains("\n.TP\n.B PXVIEW_SEXTANTS\n1: symbols pictures use sextants too"))
        #expect(page.contains("\n.TP\n.B 2\n"))
        // Plain ASCII: groff without preconv reads it as it is.
        let ascii = page.unicodeScalars.allSatisfy { $0.isASCII }
        #expect(ascii)
        #expect(page.contains("transparent, \\[u2026])"))
    }

    /// groff renders it without a warning, where it is installed.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/groff")))
    func groffRendersItCleanly() throws {
        let result = try runShell("/usr/bin/groff", ["-man", "-Tutf8", "-ww", "-z"], input: page)
        #expect(result.status == 0)
        #expect(result.output.isEmpty, "\(result.output)")
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

    @Test func completionsAndManPrintTheGeneratedText() throws {
        let sandbox = try CLISandbox()
        #expect(try sandbox.run(["completions", "bash"]).out == CompletionScripts().bash)
        #expect(try sandbox.run(["completions", "zsh"]).out == CompletionScripts().zsh)
        #expect(try sandbox.run(["completions", "fish"]).out == CompletionScripts().fish)
        #expect(try sandbox.run(["man"]).out == ManPage().text)
        let tcsh = try sandbox.run(["completions", "tcsh"])
        #expect(tcsh.status == 2)
        #expect(
            tcsh.errLines == ["pxview: unknown shell 'tcsh' (expected bash, zsh or fish)", "Try 'pxview completions --help'."])
        let missing = try sandbox.run(["completions"])
        #expect(
            missing.errLines.first
                == "pxview: pxview completions needs a shell (bash, zsh or fish), like 'pxview completions bash'")
    }

    /// scripts/install.sh with the test build's binary: every file under the
    /// prefix, made by that binary, and the same again on a second run.
    @Test func installScriptInstallsUnderAPrefix() throws {
        let directory = try TemporaryDirectory()
        let prefix = directory.file("prefix")
        let script = packageRoot().appendingPathComponent("scripts/install.sh").path
        let arguments = [script, "--prefix", prefix, "--binary", try pxviewExecutable()]
        let first = try runShell("/bin/bash", arguments, input: "")
        #expect(first.status == 0, "\(first.output)")
        let files = [
            "bin/pxview", "share/man/man1/pxview.1", "share/bash-completion/completions/pxview",
            "share/zsh/site-functions/_pxview", "share/fish/vendor_completions.d/pxview.fish",
        ]
        for file in files {
            #expect(first.output.contains("installed \(prefix)/\(file)\n"), "\(file)")
        }
        #expect(FileManager.default.isExecutableFile(atPath: prefix + "/bin/pxview"))
        let contents = { (file: String) in (try? String(contentsOfFile: prefix + "/" + file, encoding: .utf8)) ?? "" }
        #expect(contents("share/man/man1/pxview.1") == ManPage().text)
        #expect(contents("share/bash-completion/completions/pxview") == CompletionScripts().bash)
        #expect(contents("share/zsh/site-functions/_pxview") == CompletionScripts().zsh)
        #expect(contents("share/fish/vendor_completions.d/pxview.fish") == CompletionScripts().fish)
        let again = try runShell("/bin/bash", arguments, input: "")
        #expect(again.status == 0 && again.output == first.output)
        let listed = FileManager.default.enumerator(atPath: prefix)?.compactMap { $0 as? String }.filter {
            !((try? FileManager.default.attributesOfItem(atPath: prefix + "/" + $0)[.type] as? FileAttributeType)
                == .typeDirectory)
        }
        #expect(listed?.sorted() == files.sorted())
        #expect(try runShell("/bin/bash", [script, "--bogus"], input: "").status == 2)
    }
}

/// Runs `executable` with `input` on stdin; stdout then stderr.
func runShell(_ executable: String, _ arguments: [String], input: String) throws -> (status: Int32, output: String) {
    let directory = try TemporaryDirectory()
    let inputPath = directory.file("input")
    try input.write(toFile: inputPath, atomically: true, encoding: .utf8)
    let result = try runCaptured(
        executable, arguments, environment: ["PATH": "/usr/bin:/bin", "HOME": directory.path, "LANG": "C.UTF-8"],
        inputPath: inputPath, scratch: directory)
    return (result.status, result.out + result.err)
}
