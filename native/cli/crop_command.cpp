// crop_command.cpp - verify's crop options and the crop_element command: descriptors from the
// core, PNGs from the render workers, all files of a run written into the crop directory at once.
#include "crop_command.hpp"

#include <cerrno>
#include <utility>

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "core/api.hpp"
#include "core/crop_descriptor.hpp"
#include "crop_render.hpp"
#include "host_io.hpp"
#include "json/sha256.hpp"
#include "parse_supervisor.hpp"
#include "pdf_password.hpp"
#include "stale_temps.hpp"

namespace ethos::cli {
namespace {

constexpr const char* kDefaultCheckId = "v0001";

// docs/cli.md §5.1: the reason of a host_io error, from errno.
const char* io_reason(int err) {
  switch (err) {
    case ENOENT:
    case ENOTDIR:
      return "not_found";
    case EISDIR:
      return "is_directory";
    case EACCES:
    case EPERM:
    case EROFS:
      return "permission_denied";
    default:
      return "io_error";
  }
}

EthosError dir_error(int err) { return host_error("host_io", {{"argument", "--crop-dir"}, {"reason", io_reason(err)}}); }

void remove_tree(const std::string& dir) noexcept {
  if (DIR* handle = ::opendir(dir.c_str())) {
    while (const dirent* entry = ::readdir(handle)) {
      const std::string name = entry->d_name;
      if (name != "." && name != "..") ::unlink((dir + "/" + name).c_str());
    }
    ::closedir(handle);
  }
  ::rmdir(dir.c_str());
}

// All of `files` appear in `dir` or none does: each is written (and synced) into a staging
// directory inside `dir` first, then renamed into place; a failed rename undoes the earlier ones
// that created a new name. `dir` is created when missing (its parent must exist).
void write_files_atomic(const std::string& dir, const std::vector<std::pair<std::string, std::string>>& files) {
  if (::mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST) throw dir_error(errno);
  struct stat info {};
  if (::stat(dir.c_str(), &info) != 0) throw dir_error(errno);
  if (!S_ISDIR(info.st_mode)) throw dir_error(ENOTDIR);
  remove_stale_crop_staging(dir);
  std::string staging = crop_staging_template(dir);
  if (::mkdtemp(staging.data()) == nullptr) throw dir_error(errno);
  try {
    for (const auto& [name, bytes] : files) write_file_atomic(staging + "/" + name, bytes, "--crop-dir");
  } catch (...) {
    remove_tree(staging);
    throw;
  }
  std::vector<std::string> created;
  for (const auto& [name, bytes] : files) {
    const std::string target = dir + "/" + name;
    const bool existed = ::access(target.c_str(), F_OK) == 0;
    if (::rename((staging + "/" + name).c_str(), target.c_str()) != 0) {
      const int err = errno;
      for (const std::string& path : created) ::unlink(path.c_str());
      remove_tree(staging);
      throw dir_error(err);
    }
    if (!existed) created.push_back(target);
  }
  remove_tree(staging);
}

std::vector<std::pair<std::string, std::string>> crop_files(const std::vector<CropPlan>& plans,
                                                            const std::string& document_fingerprint,
                                                            const std::vector<RenderedCrop>& rendered) {
  std::vector<std::pair<std::string, std::string>> files;
  for (std::size_t k = 0; k < plans.size(); ++k) {
    const RenderedCrop* crop = rendered.empty() ? nullptr : &rendered[k];
    files.emplace_back(plans[k].crop_ref, crop_descriptor_json(plans[k], document_fingerprint, crop) + "\n");
    if (crop != nullptr) files.emplace_back(rendered_ref_for(plans[k].crop_ref), crop->png);
  }
  return files;
}

std::string read_pdf(const std::string& path) { return read_input_file(path, "--crop-source-pdf"); }

void emit(const ParsedArgs& args, std::string_view bytes) {
  if (const std::string* out = args.value("--out")) {
    write_file_atomic(*out, bytes, "--out");
  } else {
    write_stdout(bytes);
  }
}

// A password only opens the PDF a crop is rendered from: without --crop-source-pdf it is refused.
std::optional<std::string> rendering_password(const ParsedArgs& args) {
  if (args.value("--crop-source-pdf") == nullptr) {
    for (const char* option : {"--password", "--password-file"}) {
      if (args.value(option) != nullptr) throw host_error("invalid_arguments", {{"argument", option}});
    }
    return std::nullopt;
  }
  return pdf_password(args);
}

const std::string* pointer_to(const std::optional<std::string>& value) { return value ? &*value : nullptr; }

int run_crop_element(const ParsedArgs& args) {
  const std::string* pdf_path = args.value("--crop-source-pdf");
  const std::string* crop_dir = args.value("--crop-dir");
  if (pdf_path != nullptr && crop_dir == nullptr) throw host_error("invalid_arguments", {{"argument", "--crop-dir"}});
  const std::optional<std::string> password = rendering_password(args);
  const std::string* check_option = args.value("--check-id");
  const std::string check_id = check_option != nullptr ? *check_option : kDefaultCheckId;

  const std::string document = read_input_file(args.positionals.at(0), "DOC");
  const std::string request_bytes = read_input_file(*args.value("--request"), "--request");
  std::optional<std::string> pdf;
  if (pdf_path != nullptr) pdf = read_pdf(*pdf_path);

  const auto source = open_source(document, "");
  const CropElementRequest request = crop_element_request(*source, request_bytes, check_id);
  if (request.rendered != pdf.has_value()) {
    // The request names its rendering (and its ref covers that choice): a rendered request needs
    // the PDF, a descriptor-only one must not get one.
    throw host_error("invalid_arguments", {{"argument", "--crop-source-pdf"}});
  }
  std::vector<RenderedCrop> rendered;
  if (pdf) {
    const std::string fingerprint = sha256_prefixed(*pdf);
    if (fingerprint != *request.source_pdf_fingerprint) require_source_pdf(*source, fingerprint, "--crop-source-pdf");
    rendered = render_crops(*pdf, fingerprint, {request.plan}, ParseLimits{}, pointer_to(password));
  }
  const std::vector<CropPlan> plans{request.plan};
  if (crop_dir != nullptr) write_files_atomic(*crop_dir, crop_files(plans, *source->fingerprint, rendered));
  emit(args, crop_descriptor_json(request.plan, *source->fingerprint, rendered.empty() ? nullptr : &rendered[0]) + "\n");
  return 0;
}

}  // namespace

std::vector<OptionSpec> verify_crop_options() {
  return {
      {"--crop-dir", "DIR", false, {}, "Write a crop descriptor for every check with evidence into DIR (created if missing)."},
      {"--crop-source-pdf", "PDF", false, {},
       "The source PDF: also render each crop as a PNG with the cited characters highlighted (needs --crop-dir). "
       "Foreign sources render from the PDF they were made from; one without a fingerprint names its crops after the PDF."},
      pdf_password_options()[0],
      pdf_password_options()[1],
  };
}

std::optional<std::string> check_verify_crop_arguments(const ParsedArgs& args) {
  if (args.value("--crop-source-pdf") != nullptr && args.value("--crop-dir") == nullptr) {
    throw host_error("invalid_arguments", {{"argument", "--crop-dir"}});
  }
  return rendering_password(args);
}

std::string with_crop_refs(const ParsedArgs& args, const std::string& options_json, const std::optional<std::string>& pdf) {
  if (args.value("--crop-dir") == nullptr) return options_json;
  nlohmann::json options = options_json.empty() ? nlohmann::json::object() : nlohmann::json::parse(options_json);
  options["crop_refs"] = true;
  // The PDF names the crops of a source without a fingerprint (core/crop_descriptor.hpp).
  if (pdf) options["crop_source_pdf_fingerprint"] = sha256_prefixed(*pdf);
  return options.dump(-1, ' ', false, nlohmann::json::error_handler_t::strict);
}

std::optional<std::string> read_crop_source_pdf(const ParsedArgs& args, const Source& source) {
  const std::string* path = args.value("--crop-source-pdf");
  if (path == nullptr) return std::nullopt;
  std::string pdf = read_pdf(*path);
  // A source that names its PDF must get that PDF; Docling and OpenDataLoader output names none.
  require_source_pdf(source, sha256_prefixed(pdf), "--crop-source-pdf", false);
  return pdf;
}

void write_verify_crops(const ParsedArgs& args, const Source& source, const std::string& report,
                        const std::optional<std::string>& pdf, const std::optional<std::string>& password) {
  const std::string* crop_dir = args.value("--crop-dir");
  if (crop_dir == nullptr) return;
  const std::optional<std::string> pdf_fingerprint = pdf ? std::optional<std::string>(sha256_prefixed(*pdf)) : std::nullopt;
  const std::vector<CropPlan> plans = crop_plans_for_report(source, report, pdf_fingerprint);
  std::vector<RenderedCrop> rendered;
  if (pdf) rendered = render_crops(*pdf, *pdf_fingerprint, plans, ParseLimits{}, pointer_to(password));
  write_files_atomic(*crop_dir, crop_files(plans, crop_identity(source, pdf_fingerprint), rendered));
}

CommandSpec crop_element_command() {
  return CommandSpec{
      "crop_element",
      "Describe (and render) the crop of one document element.",
      "Print the crop descriptor of the element named by the crop_element request (--request) in DOC, "
      "an Ethos native document JSON, under the check id --check-id (default v0001).\n\n"
      "With --crop-source-pdf (the document's own PDF) and --crop-dir, the element is rendered as a PNG "
      "and the descriptor and PNG are written into DIR. Every invalid request (ref drift, fingerprint "
      "mismatch, unknown element, a bbox that is empty or outside its page, a bad check id) exits 2.",
      {{"DOC", "An Ethos native document JSON."}},
      {
          {"--request", "FILE", true, {}, "crop_element request JSON (ethos.crop_element_request.v1)."},
          {"--check-id", "ID", false, {}, "Check id the crop is named after (vNNNN, default v0001)."},
          {"--crop-source-pdf", "PDF", false, {}, "The document's source PDF: render the crop (needs --crop-dir)."},
          {"--crop-dir", "DIR", false, {}, "Also write the descriptor (and PNG) into DIR (created if missing)."},
          {"--out", "FILE", false, {}, "Write the descriptor atomically to FILE instead of stdout."},
          pdf_password_options()[0],
          pdf_password_options()[1],
      },
      run_crop_element,
  };
}

}  // namespace ethos::cli
