// args.hpp - the command-line model: the types of the flag table and the one parser that reads it.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace ethos::cli {

struct OptionSpec {
  std::string_view name;     // "--citations"
  std::string_view metavar;  // "FILE"; empty means a flag (takes no value)
  bool required = false;
  std::vector<std::string_view> choices;  // empty: any value is accepted
  std::string_view help;
};

struct PositionalSpec {
  std::string_view name;  // "SOURCE"; also the `argument` named in error details
  std::string_view help;
  // The last positional only: takes one or more arguments (usage shows "NAME...").
  bool repeatable = false;
};

// What the parser hands to a command: everything already checked against its spec.
struct ParsedArgs {
  std::vector<std::string> positionals;
  std::map<std::string, std::string, std::less<>> values;  // options with a value; last one wins
  std::set<std::string, std::less<>> flags;
  // Every value of every option in command-line order (for repeatable options such as --note).
  std::map<std::string, std::vector<std::string>, std::less<>> all_values;

  bool flag(std::string_view name) const { return flags.count(name) > 0; }
  // nullptr when the option was not given.
  const std::string* value(std::string_view name) const {
    auto it = values.find(name);
    return it == values.end() ? nullptr : &it->second;
  }
};

struct CommandSpec {
  std::string_view name;
  std::string_view summary;      // one line in the program's help
  std::string_view description;  // paragraphs (separated by "\n\n") in the command's help
  std::vector<PositionalSpec> positionals;
  std::vector<OptionSpec> options;  // --help is implicit for every command
  std::function<int(const ParsedArgs&)> run;
};

struct ProgramSpec {
  std::string_view name;          // shown in usage lines
  std::string_view version_line;  // printed by --version, ends with "\n"
  std::string_view description;
  std::vector<CommandSpec> commands;
};

// Parses argv (without argv[0]), runs the chosen command and returns its exit status. Argument
// errors throw EthosError(invalid_arguments) in the order of docs/cli.md §5.2.
int dispatch(const ProgramSpec& program, const std::vector<std::string>& tokens);

}  // namespace ethos::cli
