// args.cpp - reads argv against the flag table (docs/cli.md §2) and renders the help from it.
#include "args.hpp"

#include <algorithm>

#include "host_io.hpp"

namespace ethos::cli {
namespace {

constexpr std::string_view kHelpFlag = "--help";
constexpr std::string_view kShortHelpFlag = "-h";  // like --help, as in click (`ethos`) and most tools
constexpr std::string_view kVersionFlag = "--version";

EthosError argument_error(std::string_view argument) {
  return host_error("invalid_arguments", {{"argument", std::string(argument)}});
}

bool is_option_token(const std::string& token) { return token.size() > 1 && token[0] == '-'; }

const OptionSpec* find_option(const CommandSpec& command, std::string_view name) {
  for (const OptionSpec& option : command.options) {
    if (option.name == name) return &option;
  }
  return nullptr;
}

std::string option_label(const OptionSpec& option) {
  std::string label(option.name);
  if (!option.choices.empty()) {
    label += " [";
    for (std::size_t i = 0; i < option.choices.size(); ++i) {
      if (i > 0) label += "|";
      label += option.choices[i];
    }
    label += "]";
  } else if (!option.metavar.empty()) {
    label += " ";
    label += option.metavar;
  }
  return label;
}

// Two-column rows, the left column padded to the widest entry.
std::string render_rows(const std::vector<std::pair<std::string, std::string>>& rows) {
  std::size_t width = 0;
  for (const auto& row : rows) width = std::max(width, row.first.size());
  std::string out;
  for (const auto& row : rows) {
    out += "  " + row.first + std::string(width - row.first.size() + 2, ' ') + row.second + "\n";
  }
  return out;
}

constexpr std::size_t kHelpWidth = 78;

// Word-wraps each line of `text` to kHelpWidth with a two-space indent, as click does for
// descriptions; blank lines (paragraph breaks) stay blank.
std::string indent_paragraphs(std::string_view text) {
  std::string out;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(begin, end - begin);
    std::string current;
    std::size_t word_begin = 0;
    while (word_begin < line.size()) {
      std::size_t word_end = line.find(' ', word_begin);
      if (word_end == std::string_view::npos) word_end = line.size();
      std::string_view word = line.substr(word_begin, word_end - word_begin);
      if (!current.empty() && 2 + current.size() + 1 + word.size() > kHelpWidth) {
        out += "  " + current + "\n";
        current.clear();
      }
      if (!current.empty()) current += ' ';
      current += word;
      word_begin = word_end + 1;
    }
    if (!current.empty()) out += "  " + current;
    out += '\n';
    begin = end + 1;
  }
  return out;
}

std::string command_help(const ProgramSpec& program, const CommandSpec& command) {
  std::string out = "Usage: " + std::string(program.name) + " " + std::string(command.name);
  if (!command.options.empty()) out += " [OPTIONS]";
  for (const PositionalSpec& positional : command.positionals) {
    out += " " + std::string(positional.name) + (positional.repeatable ? "..." : "");
  }
  out += "\n\n" + indent_paragraphs(command.description);

  if (!command.positionals.empty()) {
    std::vector<std::pair<std::string, std::string>> rows;
    for (const PositionalSpec& p : command.positionals) rows.emplace_back(p.name, p.help);
    out += "\nArguments:\n" + render_rows(rows);
  }
  std::vector<std::pair<std::string, std::string>> rows;
  for (const OptionSpec& option : command.options) {
    std::string help(option.help);
    if (option.required) help += " (required)";
    rows.emplace_back(option_label(option), help);
  }
  rows.emplace_back("-h, " + std::string(kHelpFlag), "Show this message and exit.");
  out += "\nOptions:\n" + render_rows(rows);
  return out;
}

// The program's help; with a `group` ("doc"), only the commands whose first word it is.
std::string program_help(const ProgramSpec& program, std::string_view group = {}) {
  std::string out = "Usage: " + std::string(program.name) + (group.empty() ? "" : " " + std::string(group)) +
                    " [OPTIONS] COMMAND [ARGS]...\n\n" + indent_paragraphs(program.description);
  std::vector<std::pair<std::string, std::string>> rows;
  for (const CommandSpec& command : program.commands) {
    if (!group.empty() && command.name.substr(0, command.name.find(' ')) != group) continue;
    rows.emplace_back(command.name, command.summary);
  }
  out += "\nCommands:\n" + render_rows(rows);
  std::vector<std::pair<std::string, std::string>> options;
  if (group.empty()) options.emplace_back(std::string(kVersionFlag), "Print the version and exit.");
  options.emplace_back("-h, " + std::string(kHelpFlag), "Show this message and exit.");
  out += "\nOptions:\n" + render_rows(options);
  return out;
}

// The group a multi-word command name starts with ("doc" of "doc parse"), when `token` is one.
bool is_group(const ProgramSpec& program, std::string_view token) {
  for (const CommandSpec& command : program.commands) {
    const std::size_t space = command.name.find(' ');
    if (space != std::string_view::npos && command.name.substr(0, space) == token) return true;
  }
  return false;
}

// Returns false when --help was given (the caller prints help instead of running).
bool parse_command(const CommandSpec& command, const std::vector<std::string>& tokens, std::size_t first,
                   ParsedArgs& out) {
  bool help = false;
  bool options_ended = false;
  // Phase 1 (tokenizing): unknown options and options missing their value fail immediately.
  for (std::size_t i = first; i < tokens.size(); ++i) {
    const std::string& token = tokens[i];
    if (options_ended || !is_option_token(token)) {
      out.positionals.push_back(token);
      continue;
    }
    if (token == "--") {
      options_ended = true;
      continue;
    }
    const std::size_t eq = token.find('=');
    const std::string name = token.substr(0, eq);
    const bool inline_value = eq != std::string::npos;
    if (name == kHelpFlag || name == kShortHelpFlag) {
      if (inline_value) throw argument_error(name);
      help = true;
      continue;
    }
    const OptionSpec* option = find_option(command, name);
    if (option == nullptr) throw argument_error(name);
    if (option->metavar.empty()) {
      if (inline_value) throw argument_error(name);
      out.flags.insert(name);
      continue;
    }
    if (inline_value) {
      out.values[name] = token.substr(eq + 1);
    } else if (i + 1 < tokens.size()) {
      // The next argument is the value even if it looks like an option (click does the same).
      out.values[name] = tokens[++i];
    } else {
      throw argument_error(name);
    }
    out.all_values[name].push_back(out.values[name]);
  }
  // Phase 2: --help wins over every remaining argument error.
  if (help) return false;
  // Phase 3: completeness and choices.
  if (out.positionals.size() < command.positionals.size()) {
    throw argument_error(command.positionals[out.positionals.size()].name);
  }
  for (const OptionSpec& option : command.options) {
    const std::string* value = out.value(option.name);
    if (value == nullptr) {
      if (option.required) throw argument_error(option.name);
      continue;
    }
    if (!option.choices.empty() &&
        std::find(option.choices.begin(), option.choices.end(), *value) == option.choices.end()) {
      throw argument_error(option.name);
    }
  }
  const bool repeatable = !command.positionals.empty() && command.positionals.back().repeatable;
  if (!repeatable && out.positionals.size() > command.positionals.size()) {
    throw argument_error(out.positionals[command.positionals.size()]);
  }
  return true;
}

// A command name may be several words ("doc parse"); returns how many tokens from `index` spell
// it, or 0 when they do not.
std::size_t command_words_matched(std::string_view name, const std::vector<std::string>& tokens, std::size_t index) {
  std::size_t words = 0;
  while (!name.empty()) {
    const std::size_t space = name.find(' ');
    const std::string_view word = name.substr(0, space);
    if (index + words >= tokens.size() || tokens[index + words] != word) return 0;
    ++words;
    name = space == std::string_view::npos ? std::string_view() : name.substr(space + 1);
  }
  return words;
}

}  // namespace

int dispatch(const ProgramSpec& program, const std::vector<std::string>& tokens) {
  // Program-level options come before the command; the first non-option token names it.
  std::size_t index = 0;
  std::string_view early_exit;  // the first of --help / --version, printed only if all else parses
  for (; index < tokens.size() && is_option_token(tokens[index]); ++index) {
    const std::string& token = tokens[index];
    if (token == kHelpFlag || token == kShortHelpFlag || token == kVersionFlag) {
      if (early_exit.empty()) early_exit = token == kVersionFlag ? kVersionFlag : kHelpFlag;
      continue;
    }
    if (token == "--") {
      ++index;
      break;
    }
    throw argument_error(token.substr(0, token.find('=')));
  }
  if (early_exit == kHelpFlag) {
    write_stdout(program_help(program));
    return 0;
  }
  if (early_exit == kVersionFlag) {
    write_stdout(program.version_line);
    return 0;
  }
  // No command: the command list, on stdout with exit 0, as `ethos` (and pip, and click before
  // 8.2) does; a script that forgot the command sees it at once in its output.
  if (index >= tokens.size()) {
    write_stdout(program_help(program));
    return 0;
  }

  for (const CommandSpec& command : program.commands) {
    const std::size_t words = command_words_matched(command.name, tokens, index);
    if (words == 0) continue;
    ParsedArgs args;
    if (!parse_command(command, tokens, index + words, args)) {
      write_stdout(command_help(program, command));
      return 0;
    }
    return command.run(args);
  }
  // A group alone ("doc", "doc --help", "doc -h") lists its commands, like `ethos doc`.
  if (is_group(program, tokens[index])) {
    bool only_help = true;
    for (std::size_t i = index + 1; i < tokens.size(); ++i) {
      only_help = only_help && (tokens[i] == kHelpFlag || tokens[i] == kShortHelpFlag);
    }
    if (only_help) {
      write_stdout(program_help(program, tokens[index]));
      return 0;
    }
  }
  throw argument_error("COMMAND");
}

}  // namespace ethos::cli
