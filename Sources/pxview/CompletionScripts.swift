/// Shell completion scripts made from the table of commands (`pxview
/// completions bash|zsh|fish`): the command names, each command's options,
/// the words of options and arguments with a fixed set of values
/// (`--protocol`, `--fit`, `fav add|rm|list`) and file names where a command
/// takes files (`show`, `save --out`).
struct CompletionScripts {
    /// `pxview` alone: the options that may come before a command.
    var root: CommandSpec
    var commands: [CommandSpec]

    init(root: CommandSpec, commands: [CommandSpec]) {
        self.root = root
        self.commands = commands
    }

    /// From the table the binary dispatches with.
    init() {
        self.init(root: Commands.root.spec, commands: Commands.all.map { $0.spec })
    }

    /// The words `completion` offers, or nil for none or for file names.
    func words(_ completion: Completion) -> [String]? {
        switch completion {
        case .none, .files: return nil
        case .words(let words): return words
        case .commandNames: return commands.map(\.name)
        }
    }

    /// Every spelling of every option that takes a value, in any command:
    /// what bash skips (with its value) when it looks for the command name.
    var valueOptionSpellings: [String] {
        var seen: Set<String> = []
        return ([root] + commands).flatMap(\.options).filter(\.takesValue).flatMap(\.spellings).filter {
            seen.insert($0).inserted
        }
    }

    // MARK: bash

    var bash: String {
        var lines = [
            "# bash completion for pxview, made by `pxview completions bash` from its table of commands.",
            "",
            "_pxview_words() { mapfile -t COMPREPLY < <(compgen -W \"$1\" -- \"$cur\"); }",
            "# A glob, not compgen -f: compgen gives one name per line, which splits a name holding a newline.",
            "_pxview_files() {",
            "    compopt -o filenames 2>/dev/null",
            "    COMPREPLY=()",
            "    local path=$cur name",
            "    [[ $path == \"~\" || $path == \"~/\"* ]] && path=$HOME${path:1}",
            "    for name in \"$path\"*; do",
            "        [[ -e $name || -L $name ]] || continue",
            "        [[ $path != \"$cur\" ]] && name=\"~${name:${#HOME}}\"",
            "        COMPREPLY+=(\"$name\")",
            "    done",
            "}",
            "",
            "_pxview() {",
            "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}",
            "    # --opt=value: bash splits at '=', so the option is one word further back.",
            "    if [[ $cur == = ]]; then cur=\"\"; fi",
            "    if [[ $prev == = ]]; then prev=${COMP_WORDS[COMP_CWORD-2]}; fi",
            "    local command=\"\" positionals=0 only_positionals=\"\" i word",
            "    for ((i = 1; i < COMP_CWORD; i++)); do",
            "        word=${COMP_WORDS[i]}",
            "        if [[ -z $only_positionals ]]; then",
            "            case $word in",
            "                --) only_positionals=1; continue ;;",
            "                \(valueOptionSpellings.joined(separator: "|")))",
            "                    [[ ${COMP_WORDS[i+1]} == = ]] && ((i++))",
            "                    ((i++)); continue ;;",
            "                -*) continue ;;",
            "            esac",
            "        fi",
            "        if [[ -z $command ]]; then command=$word; else ((positionals++)); fi",
            "    done",
            "    case $command in",
        ]
        lines += bashCase(pattern: "\"\"", spec: root, positionals: .words(commands.map(\.name)))
        for command in commands {
            lines += bashCase(pattern: command.name, spec: command, positionals: command.positionals)
        }
        lines += [
            "    esac",
            "}",
            "",
            "complete -F _pxview pxview",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    private func bashCase(pattern: String, spec: CommandSpec, positionals: Completion) -> [String] {
        var lines = ["        \(pattern))", "            case $prev in"]
        for option in spec.options where option.takesValue {
            let reply: String
            switch option.completion {
            case .files: reply = "_pxview_files; "
            case .none: reply = ""
            case .words, .commandNames: reply = "_pxview_words \(bashQuoted(words(option.completion) ?? [])); "
            }
            lines.append("                \(option.spellings.joined(separator: "|"))) \(reply)return ;;")
        }
        lines.append("            esac")
        let optionWords = spec.options.flatMap(\.spellings)
        lines.append("            if [[ $cur == -* ]]; then _pxview_words \(bashQuoted(optionWords))")
        switch positionals {
        case .none: break
        case .files: lines.append("            else _pxview_files")
        case .words, .commandNames:
            lines.append("            elif ((positionals == 0)); then _pxview_words \(bashQuoted(words(positionals) ?? []))")
        }
        lines += ["            fi ;;"]
        return lines
    }

    private func bashQuoted(_ words: [String]) -> String {
        "'" + words.joined(separator: " ").replacing("'", with: "'\\''") + "'"
    }

    // MARK: zsh

    var zsh: String {
        var lines = [
            "#compdef pxview",
            "# zsh completion for pxview, made by `pxview completions zsh` from its table of commands.",
            "",
            "_pxview() {",
            "  local curcontext=$curcontext state line",
            "  typeset -A opt_args",
            "  _arguments -C \\",
        ]
        lines += zshOptions(root.options).map { "    \($0) \\" }
        lines += [
            "    '1: :->command' \\",
            "    '*:: :->arguments'",
            "  case $state in",
            "    command)",
            "      local -a commands",
            "      commands=(",
        ]
        lines += commands.map { "        \(zshQuoted("\(zshEscaped($0.name, ":")):\($0.abstract)"))" }
        lines += [
            "      )",
            "      _describe -t commands command commands ;;",
            "    arguments)",
            "      curcontext=${curcontext%:*:*}:pxview-$words[1]:",
            "      case $words[1] in",
        ]
        for command in commands {
            lines.append("        \(command.name))")
            lines.append("          _arguments \\")
            var specs = zshOptions(command.options)
            switch command.positionals {
            case .none: break
            case .files: specs.append("'*:file:_files'")
            case .words, .commandNames:
                specs.append(zshQuoted("1:argument:(\((words(command.positionals) ?? []).joined(separator: " ")))"))
            }
            // Arguments with nothing to offer still need a spec, or _arguments
            // stops at the first one (`save 1 -o <TAB>` would complete nothing).
            if command.positionals != .files, command.maxPositionals != 0 {
                specs.append("'*:argument: '")
            }
            lines += specs.enumerated().map { index, spec in "            \(spec)" + (index == specs.count - 1 ? " ;;" : " \\") }
        }
        lines += [
            "      esac ;;",
            "  esac",
            "}",
            "",
            "_pxview \"$@\"",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// One `_arguments` spec per spelling: `'(-i --interactive)-i[help]'`,
    /// `'--size=[help]:WxH: '`, `'--fit=[help]:MODE:(contain cover down)'`.
    private func zshOptions(_ options: [OptionSpec]) -> [String] {
        options.flatMap { option in
            let exclusion = option.aliases.isEmpty ? "" : "(\(option.spellings.joined(separator: " ")))"
            let help = "[\(zshEscaped(option.help, "[]:"))]"
            let value: String
            switch option.completion {
            case _ where !option.takesValue: value = ""
            case .none: value = ":\(zshEscaped(option.valueName ?? "", ":")): "
            case .files: value = ":\(zshEscaped(option.valueName ?? "", ":")):_files"
            case .words, .commandNames:
                value = ":\(zshEscaped(option.valueName ?? "", ":")):(\((words(option.completion) ?? []).joined(separator: " ")))"
            }
            return option.spellings.map { spelling in
                let takes = option.takesValue && spelling.hasPrefix("--") ? "=" : ""
                return zshQuoted(exclusion + spelling + takes + help + value)
            }
        }
    }

    /// `text` with a backslash before each of `characters` (and before backslashes).
    private func zshEscaped(_ text: String, _ characters: String) -> String {
        var escaped = ""
        for character in text {
            if character == "\\" || characters.contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    private func zshQuoted(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }

    // MARK: fish

    var fish: String {
        var lines = [
            "# fish completion for pxview, made by `pxview completions fish` from its table of commands.",
            "",
            "complete -c pxview -f",
            "",
            "# The words typed so far that are neither options nor their values: the command, then its arguments.",
            "function __pxview_arguments",
            "    set -l tokens (commandline -opc)",
            "    set -e tokens[1]",
            "    set -l skip 0",
            "    for token in $tokens",
            "        if test $skip = 1",
            "            set skip 0",
            "            continue",
            "        end",
            "        switch $token",
            "            case \(valueOptionSpellings.joined(separator: " "))",
            "                set skip 1",
            "            case '-*'",
            "            case '*'",
            "                echo $token",
            "        end",
            "    end",
            "end",
            "",
            "# No argument: no command yet. COMMAND: that command. COMMAND N: that command with N arguments after it.",
            "function __pxview_using",
            "    set -l words (__pxview_arguments)",
            "    if not set -q argv[1]",
            "        test (count $words) -eq 0",
            "        return",
            "    end",
            "    test \"$words[1]\" = \"$argv[1]\"; or return 1",
            "    set -q argv[2]; or return 0",
            "    test (count $words) -eq (math $argv[2] + 1)",
            "end",
            "",
            "# pxview alone: the commands, and the options that may come before one",
        ]
        lines += commands.map { "complete -c pxview -n __pxview_using -a \($0.name) -d \(fishQuoted($0.abstract))" }
        lines += fishOptions(root.options, condition: "__pxview_using")
        for command in commands {
            let condition = "'__pxview_using \(command.name)'"
            lines += ["", "# pxview \(command.name)"]
            lines += fishOptions(command.options, condition: condition)
            switch command.positionals {
            case .none: break
            case .files: lines.append("complete -c pxview -n \(condition) -F")
            case .words, .commandNames:
                let words = (words(command.positionals) ?? []).joined(separator: " ")
                lines.append("complete -c pxview -n '__pxview_using \(command.name) 0' -a \(fishQuoted(words))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func fishOptions(_ options: [OptionSpec], condition: String) -> [String] {
        options.map { option in
            var line = "complete -c pxview -n \(condition)"
            for spelling in option.spellings {
                line += spelling.hasPrefix("--") ? " -l \(spelling.dropFirst(2))" : " -s \(spelling.dropFirst())"
            }
            if option.takesValue {
                switch option.completion {
                case .none: line += " -x"
                case .files: line += " -r -F"
                case .words, .commandNames:
                    line += " -x -a \(fishQuoted((words(option.completion) ?? []).joined(separator: " ")))"
                }
            }
            return line + " -d \(fishQuoted(option.help))"
        }
    }

    private func fishQuoted(_ text: String) -> String {
        "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }
}
