// answer_html.cpp - the self-contained HTML page of an answer check (docs/answers.md "An HTML page").
#include "answer/answer_html.hpp"

#include <cstdint>
#include <cstdio>
#include <vector>

#include <nlohmann/json.hpp>

#include "answer/answer_check.hpp"
#include "answer/answer_palette.hpp"
#include "core/error.hpp"
#include "json/strict_json.hpp"
#include "text/utf8.hpp"

namespace ethos::answer {
namespace {

using nlohmann::json;

// Nothing may be fetched: no script, image, font, frame or connection; only the page's own inline
// style element. base-uri and form-action are not covered by default-src.
constexpr const char* kPolicy = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

// Characters that change how the text around them reads without being seen: bidi embeddings,
// overrides, isolates and marks, zero-width space, word joiner and invisible operators, the BOM,
// the Mongolian vowel separator and tag characters. (Zero-width joiner and non-joiner stay: Indic
// and Persian words and emoji sequences need them, and they cannot reorder text.)
bool is_invisible(char32_t c) {
  return c == 0x061C || c == 0x200B || c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E) ||
         (c >= 0x2060 && c <= 0x2064) || (c >= 0x2066 && c <= 0x2069) || c == 0xFEFF || c == 0x180E ||
         (c >= 0xE0000 && c <= 0xE007F);
}

// One scalar of untrusted text as HTML text or attribute content.
void append_escaped(std::string& out, char32_t c) {
  switch (c) {
    case '&': out += "&amp;"; return;
    case '<': out += "&lt;"; return;
    case '>': out += "&gt;"; return;
    case '"': out += "&quot;"; return;
    case '\'': out += "&#39;"; return;
    default: break;
  }
  const bool control = (c < 0x20 && c != '\n' && c != '\t') || (c >= 0x7f && c < 0xa0);
  if (control) {
    utf8::append(out, char32_t{0xFFFD});
  } else if (is_invisible(c)) {
    char code[16];
    std::snprintf(code, sizeof code, "U+%04X", static_cast<unsigned>(c));
    out += "<span class=\"invisible\">";
    out += code;
    out += "</span>";
  } else {
    utf8::append(out, c);
  }
}

std::string escaped(std::string_view text) {
  std::string out;
  for (std::size_t pos = 0; pos < text.size();) append_escaped(out, utf8::next(text, pos));
  return out;
}

// Attribute values hold only our own words and numbers, but are escaped all the same.
std::string attribute(std::string_view text) {
  std::string out;
  for (std::size_t pos = 0; pos < text.size();) {
    const char32_t c = utf8::next(text, pos);
    if (is_invisible(c)) continue;
    append_escaped(out, c);
  }
  return out;
}

std::string number(const json& value) { return std::to_string(value.get<std::int64_t>()); }

std::string box_text(const json& bbox) {
  std::string out = "[";
  for (std::size_t i = 0; i < bbox.size(); ++i) out += (i ? ", " : "") + bbox[i].dump();
  return out + "]";
}

struct Target {
  std::int64_t start = 0, end = 0;
  std::string css_class, href, title;
};

// Where each located element of a run is: element, page (and number), boxes, and a link into the PDF.
std::string locations(const json& elements, std::int64_t document, const std::vector<std::string>& links) {
  std::string out = "<ul>";
  for (const json& element : elements) {
    out += "<li>source " + std::to_string(document + 1) + ", element <code>" +
           escaped(element.at("element_id").get<std::string>()) + "</code>";
    if (element.contains("page")) {
      out += ", page <code>" + escaped(element.at("page").get<std::string>()) + "</code>";
      if (element.contains("page_index")) out += " (page " + number(element.at("page_index")) + ")";
    }
    const json& boxes = element.at("boxes");
    if (!boxes.empty()) {
      out += ", box" + std::string(boxes.size() > 1 ? "es" : "");
      for (std::size_t b = 0; b < boxes.size(); ++b) {
        out += (b ? "; " : " ") + box_text(boxes[b].at("bbox"));
      }
    }
    const std::size_t d = static_cast<std::size_t>(document);
    if (element.contains("page_index") && d < links.size() && !links[d].empty()) {
      const std::string href = pdf_page_href(links[d], element.at("page_index").get<long long>());
      out += " <a href=\"" + attribute(href) + "\">open page " + number(element.at("page_index")) + " of the PDF</a>";
    }
    out += "</li>";
  }
  return out + "</ul>";
}

std::string render(const json& result, std::string_view answer, const std::string& palette_name,
                   const std::vector<std::string>& links, std::string_view result_bytes) {
  const Palette palette = palette_named(palette_name);
  // Runs first, quotations over them: a quotation's verdict is the stronger statement about its words.
  std::vector<Target> runs, quotes;
  std::size_t n = 0;
  for (const json& run : result.at("runs")) {
    ++n;
    runs.push_back({run.at("start").get<std::int64_t>(), run.at("end").get<std::int64_t>(), "verbatim",
                    "#run-" + std::to_string(n), "verbatim, run " + std::to_string(n)});
  }
  n = 0;
  for (const json& quote : result.at("quotes")) {
    ++n;
    const std::string status = quote.at("status");
    const std::string css = status == "grounded" ? "grounded" : status == "too_short" ? "unchecked" : "failed";
    quotes.push_back({quote.at("start").get<std::int64_t>(), quote.at("end").get<std::int64_t>(), css,
                      "#quote-" + std::to_string(n), "quotation " + std::to_string(n) + ": " + status});
  }
  std::vector<char32_t> scalars;
  for (std::size_t pos = 0; pos < answer.size();) scalars.push_back(utf8::next(answer, pos));

  std::string words;
  std::size_t i = 0;
  for (const json& word : result.at("words")) {
    const std::int64_t start = word.at("start"), end = word.at("end");
    if (start < static_cast<std::int64_t>(i) || end <= start || end > static_cast<std::int64_t>(scalars.size())) {
      throw invalid_input("the answer is not the one the result was computed for", "$", {{"input", "answer"}});
    }
    for (; static_cast<std::int64_t>(i) < start; ++i) append_escaped(words, scalars[i]);
    const Target* target = nullptr;
    if (word.at("verbatim").get<bool>()) {
      for (const Target& run : runs) {
        if (run.start <= start && end <= run.end) {
          target = &run;
          break;
        }
      }
    }
    for (const Target& quote : quotes) {
      if (quote.start <= start && end <= quote.end) target = &quote;
    }
    std::string text;
    for (; static_cast<std::int64_t>(i) < end; ++i) append_escaped(text, scalars[i]);
    if (target == nullptr) {
      words += "<span class=\"novel\" title=\"not verbatim\">" + text + "</span>";
    } else {
      words += "<a class=\"" + target->css_class + "\" href=\"" + target->href + "\" title=\"" + attribute(target->title) +
               "\">" + text + "</a>";
    }
  }
  for (; i < scalars.size(); ++i) append_escaped(words, scalars[i]);

  std::string out =
      "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"" + std::string(kPolicy) + "\">\n"
      "<meta name=\"referrer\" content=\"no-referrer\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<title>Answer check</title>\n<style>\n"
      "body{font-family:system-ui,sans-serif;margin:2em auto;max-width:60em;padding:0 1em;line-height:1.5}\n"
      ".answer{background:#1e1e1e;color:#e0e0e0;padding:1em;white-space:pre-wrap;overflow-wrap:anywhere}\n"
      ".answer a{text-decoration:none;color:inherit}\n"
      ".key{background:#1e1e1e;color:#e0e0e0;padding:.3em 1em}\n"
      ".invisible{border:1px dashed currentColor;font-size:.75em;padding:0 .2em}\n"
      "pre{white-space:pre-wrap;overflow-wrap:anywhere}\n";
  const auto rule = [&](const char* name, const char* sgr) {
    out += ".answer ." + std::string(name) + ",.key ." + name + "{" + sgr_to_css(sgr) + "}\n";
  };
  rule("verbatim", palette.verbatim);
  rule("novel", palette.novel);
  rule("grounded", palette.grounded);
  rule("failed", palette.failed);
  rule("unchecked", palette.unchecked);
  out += "</style>\n</head>\n<body>\n<h1>Answer check</h1>\n";
  out += "<p class=\"key\">key: <span class=\"verbatim\">verbatim</span>, <span class=\"novel\">not verbatim</span>, "
         "<span class=\"grounded\">quote grounded</span>, <span class=\"failed\">quote not grounded</span>, "
         "<span class=\"unchecked\">quote too short</span> (palette " + escaped(palette_name) +
         "; each word's verdict is also its title, and each run and quotation is listed below)</p>\n";
  out += "<div class=\"answer\" dir=\"auto\">" + words + "</div>\n";
  out += "<h2>Summary</h2>\n<pre>" + escaped(answer_summary_text(result_bytes)) + "</pre>\n";
  out += "<h2>Runs</h2>\n";
  if (result.at("runs").empty()) out += "<p>No verbatim run.</p>\n";
  out += result.at("runs").empty() ? "" : "<ol>\n";
  n = 0;
  for (const json& run : result.at("runs")) {
    const json& source = run.at("source");
    out += "<li id=\"run-" + std::to_string(++n) + "\">" + number(run.at("words")) + " words: <q>" +
           escaped(run.at("text").get<std::string>()) + "</q>" +
           locations(source.at("elements"), source.at("document"), links) + "</li>\n";
  }
  out += result.at("runs").empty() ? "" : "</ol>\n";
  out += "<h2>Quotations</h2>\n";
  if (result.at("quotes").empty()) out += "<p>No quotation.</p>\n";
  out += result.at("quotes").empty() ? "" : "<ol>\n";
  n = 0;
  for (const json& quote : result.at("quotes")) {
    const std::string status = quote.at("status");
    const std::string css = status == "grounded" ? "grounded" : status == "too_short" ? "unchecked" : "failed";
    out += "<li id=\"quote-" + std::to_string(++n) + "\"><strong>" + escaped(status) + "</strong>: <q>" +
           escaped(quote.at("text").get<std::string>()) + "</q>";
    if (quote.contains("check")) {
      const json& check = quote.at("check");
      if (check.contains("reason")) out += " (reason <code>" + escaped(check.at("reason").get<std::string>()) + "</code>)";
      const json evidence = check.value("evidence", json::object());
      if (status == "grounded" && evidence.contains("page")) {
        out += " on page <code>" + escaped(evidence.at("page").get<std::string>()) + "</code>";
      }
      out += ", source " + std::to_string(quote.at("document").get<std::int64_t>() + 1);
    } else {
      out += " (" + number(quote.at("words")) + " words: too short to check)";
    }
    out += "</li>\n";
  }
  out += result.at("quotes").empty() ? "" : "</ol>\n";
  return out + "</body>\n</html>\n";
}

}  // namespace

std::string pdf_page_href(std::string_view location, long long page) {
  static const char* const kHex = "0123456789ABCDEF";
  std::string out;
  for (const char c : location) {
    const auto byte = static_cast<unsigned char>(c);
    const bool keep = (byte >= 'a' && byte <= 'z') || (byte >= 'A' && byte <= 'Z') || (byte >= '0' && byte <= '9') ||
                      byte == '-' || byte == '.' || byte == '_' || byte == '~' || byte == '/';
    if (keep) {
      out += c;
    } else {
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    }
  }
  return out + "#page=" + std::to_string(page);
}

std::string answer_render_html(std::string_view result_bytes, std::string_view answer, std::string_view options_bytes) {
  const json options = parse_strict_dom(options_bytes, "options");
  if (!options.is_object()) throw invalid_input("options must be an object", "$", {{"input", "options"}});
  std::string palette = "classic";
  std::vector<std::string> links;
  for (const auto& [key, value] : options.items()) {
    if (key == "palette" && value.is_string()) {
      palette = value.get<std::string>();
    } else if (key == "links" && value.is_array()) {
      for (const json& link : value) {
        if (!link.is_null() && !link.is_string()) throw invalid_input("invalid value", "$.links", {{"input", "options"}});
        links.push_back(link.is_null() ? "" : link.get<std::string>());
      }
    } else {
      throw invalid_input("unknown or invalid option", "$." + key, {{"input", "options"}});
    }
  }
  (void)palette_named(palette);  // an unknown palette is the options' error, before the result's
  const json result = parse_strict_dom(result_bytes, "result");
  try {
    return render(result, answer, palette, links, result_bytes);
  } catch (const json::exception&) {
    throw invalid_input("not an answer check result", "$", {{"input", "result"}});
  }
}

}  // namespace ethos::answer
