// cfdrun: runs one CFD case described in a YAML file and writes HDF5 + XDMF.
#include "core/checkpoint.hpp"
#include "core/clock.hpp"
#include "core/comm.hpp"
#include "core/command_line.hpp"
#include "core/config.hpp"
#include "core/initial_file.hpp"
#include "core/memory_meter.hpp"
#include "core/parallel.hpp"
#include "core/run/run_settings.hpp"
#include "core/signals.hpp"
#include "core/version.hpp"
#include "physics/solvers.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <new>
#include <string>
#include <vector>

#include <sys/ioctl.h>
#include <unistd.h>

namespace {

const char* usage_text = R"(usage: cfdrun CASE.yaml [options]
       cfdrun --restart OUTPUT/checkpoint_<step>.h5 [--set KEY=VALUE ...] [options]
       cfdrun --list-keys [SOLVER] [--markdown]
       cfdrun --list-solvers
       cfdrun --version | --help

Runs the case described in CASE.yaml and writes HDF5 snapshots with an XDMF
index (open <output>/<solver>.xdmf in ParaView or VisIt, or the .h5 files
with h5py). Shipped cases live in config/ (installed to share/cfdrun/config).

Options (each that takes a value also as --option=VALUE, e.g. --output=run1):
  --set SECTION.KEY=VALUE  override a key of the case file (repeatable), e.g.
                           --set grid.nx=1024 --set diffusion.precision=fp32
  --output DIR             write results to DIR (same as --set output.dir=DIR)
  --overwrite              replace the results of an earlier run in the output folder
  --restart CHECKPOINT     continue the run saved in CHECKPOINT (an output folder's
                           checkpoint_<step>.h5) in its folder: the snapshot series,
                           XDMF index and history carry on from its step, with the bits
                           an uninterrupted run gives. With --output NEW the run branches
                           into the folder NEW instead (its series begins at the
                           checkpoint; the old folder is not touched). --set may change
                           the cadence, limits and rank count (time.steps,
                           time.end_time, output.*, run.*, parallel.*: the same bits)
                           and numerics such as time.cfl or euler.riemann (then the
                           results differ from an unbroken run; cfdrun says so); grid,
                           physics and precision are fixed. The error for a fixed key
                           lists every key that may change
  --wall-time HH:MM:SS     stop before this much wall-clock time has passed, leaving
                           a checkpoint (same as --set run.wall_time=...)
  --validate               check the case, build its initial state and check it as
                           the run would (the device memory of a run, no file
                           written), print the resolved configuration (every key
                           with its value or default) and stop
  --quiet, -q              print nothing but errors
  --list-keys [SOLVER]     list every case-file key: type, default, meaning (on a
                           terminal, wrapped to its width)
  --markdown               with --list-keys: as the table in docs/user-guide.md
  --list-solvers           the solvers (the value of a case's `solver` key), each
                           with the page of docs/ that holds its key table
  --version                version, git revision, Kokkos version, execution spaces
  --help, -h               this text
  --kokkos-*               passed on to Kokkos, e.g. --kokkos-threads=4 (Kokkos 3)
                           or --kokkos-num-threads=4 (Kokkos 4); OMP_NUM_THREADS works too

Several processes: mpirun -np 4 cfdrun CASE.yaml splits the grid into one
block per rank (keys parallel.ranks_x/ranks_y fix the process grid; one GPU
per rank on GPU builds); the results are the same bits on any rank count
(diffusion's implicit schemes: the same to the linear solver's tolerance).
docs/parallel.md has the details.

Checkpoints and job control: every run leaves checkpoint_<step>.h5 of its final
state (output.checkpoint_at_end), and more with output.checkpoint_every,
checkpoint_interval or checkpoint_wall_seconds. SIGTERM, SIGINT and SIGUSR1
finish the current step, write a checkpoint and exit with status 3; a second
SIGINT exits at once. Under mpirun prefer SIGUSR1 (mpirun forwards it as is).

Solvers:
)";

const char* usage_tail = R"(
Exit status: 0 on success; 1 when a run fails (a non-physical state also leaves
diagnosis_<step>.h5); 2 for a bad command line, case file or checkpoint; 3 when
a signal or the wall-time limit stopped the run after writing a checkpoint
(continue it with --restart).
Errors in a case file name the file, line, column and key. docs/user-guide.md
describes every key; docs/output-format.md the files written.
)";

void print_help() {
  std::fputs(usage_text, stdout);
  for (const auto& s : cfd::solvers()) std::printf("  %-12s %s\n", s.name, s.summary);
  std::fputs(usage_tail, stdout);
}

void print_version() {
  std::printf("cfdrun %s (git %s)\nKokkos %s, execution spaces:", cfd::version, cfd::git_revision,
              cfd::kokkos_version_string().c_str());
  for (const auto& s : cfd::enabled_execution_spaces()) std::printf(" %s", s.c_str());
  std::printf(" (default first)\n");
}

// Kokkos reads its numeric options with atoi or aborts on bad ones; cfdrun
// checks them first.
void check_kokkos_option(const std::string& option) {
  static const char* numeric[] = {"threads", "num-threads", "numa", "device-id", "num-devices", "skip-device"};
  const auto eq = option.find('=');
  const std::string name = option.substr(9, eq == std::string::npos ? std::string::npos : eq - 9);
  for (const char* n : numeric) {
    if (name != n) continue;
    const std::string value = eq == std::string::npos ? "" : option.substr(eq + 1);
    const auto v = cfd::whole_number(value);
    if (!v || *v < 0 || *v > 1 << 20)
      throw std::invalid_argument(option + ": expected --kokkos-" + name + "=N with N a whole number (e.g. --kokkos-" +
                                  name + "=4)");
  }
}

// The keys --restart may change in one way, from the schema: "a, b and c".
std::string restart_keys(const std::vector<cfd::KeySpec>& keys, cfd::OnRestart how) {
  std::vector<std::string> names;
  for (const auto& spec : keys) {
    if (spec.on_restart != how) continue;
    // A whole section is named once ("output.*").
    const std::string section = spec.path.substr(0, spec.path.find('.'));
    const bool whole = std::all_of(keys.begin(), keys.end(), [&](const cfd::KeySpec& s) {
      return s.path.rfind(section + ".", 0) != 0 || s.on_restart == how;
    });
    const std::string name = whole ? section + ".*" : spec.path;
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  std::string text;
  for (size_t i = 0; i < names.size(); ++i) text += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return text;
}

// A key's value as the resolved configuration writes it.
std::string value_text(const cfd::Config& config, const cfd::KeySpec& spec) {
  try {
    switch (spec.type) {
      case cfd::KeyType::integer: return std::to_string(config.get_int(spec.path));
      case cfd::KeyType::real: return cfd::format_real(config.get_real(spec.path));
      case cfd::KeyType::boolean: return config.get_bool(spec.path) ? "true" : "false";
      default: return config.get_string(spec.path);
    }
  } catch (const std::exception&) {
    return "-";
  }
}

// Messages about the command line and the case come from rank 0 alone:
// every rank reads the same ones.
bool root = true;

int usage_error(const std::string& message) {
  if (root) std::fprintf(stderr, "cfdrun: error: %s\nRun 'cfdrun --help' for usage.\n", message.c_str());
  return cfd::exit_usage;
}

// How many ranks hold a `text` other than rank 0's (collective).
long ranks_unlike_root(const cfd::Comm& world, const std::string& text) {
  return world.sum(world.broadcast(text) == text ? 0L : 1L);
}

// The FNV-1a digest of the initial-state file's bytes (file.path), with
// its path; "" when the case reads none or it cannot be read (the run then
// refuses it, on every rank).
std::string initial_file_digest(const cfd::Config& config) {
  if (!config.given("file.path")) return "";
  const std::string path = cfd::case_relative_path(config, "file.path");
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::uint64_t h = 14695981039346656037ull;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0)
    for (std::streamsize k = 0; k < in.gcount(); ++k) h = (h ^ static_cast<unsigned char>(chunk[k])) * 1099511628211ull;
  return path + " " + std::to_string(h);
}

// Whether a version "MAJOR.MINOR.PATCH" is before MAJOR.MINOR (an empty
// or unreadable one is: format-1 checkpoints wrote none).
bool version_before(const std::string& version, int major, int minor) {
  int a = 0, b = 0;
  if (std::sscanf(version.c_str(), "%d.%d", &a, &b) != 2) return true;
  return a < major || (a == major && b < minor);
}

}  // namespace

// The width --list-keys wraps its lines to on a terminal: the terminal's
// (COLUMNS, else 100, where it does not say). None when the output goes to
// a pipe or a file: scripts read one key per line.
std::size_t listing_width() {
  if (!isatty(STDOUT_FILENO)) return 0;
  std::size_t columns = 0;
  winsize w{};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) == 0) columns = w.ws_col;
  if (const char* c = std::getenv("COLUMNS"); columns == 0 && c) columns = std::strtoul(c, nullptr, 10);
  return columns == 0 ? 100 : std::max<std::size_t>(columns, 60);
}

// `text` in lines of at most `width` characters, each after `indent`
// spaces, broken at spaces and after the bars of a choice list
// ([kh_mcnally|kh_seed|...]); a piece longer than a line stays whole.
std::string wrapped(const std::string& text, std::size_t indent, std::size_t width) {
  std::string out, line;
  bool space_before = false;  // the piece followed a space (not a bar)
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find(' ', start), text.find('|', start));
    const bool bar = end != std::string::npos && text[end] == '|';
    const std::size_t stop = end == std::string::npos ? text.size() : end + (bar ? 1 : 0);
    const std::string piece = text.substr(start, stop - start);
    const std::string join = line.empty() || !space_before ? "" : " ";
    if (!line.empty() && indent + line.size() + join.size() + piece.size() > width) {
      out += std::string(indent, ' ') + line + "\n";
      line = piece;
    } else {
      line += join + piece;
    }
    space_before = !bar;
    start = bar ? stop : stop + 1;
  }
  if (!line.empty()) out += std::string(indent, ' ') + line + "\n";
  return out;
}

int main(int argc, char* argv[]) {
  cfd::job::process_seconds();  // the wall-time limit counts from here
  // Line by line even into a pipe or a file, so that the banner and the
  // progress lines come before a later message on stderr (a stop, an error),
  // in the order they happened.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  cfd::MpiSession mpi(argc, argv);
  const cfd::Comm world = cfd::Comm::world();
  root = world.is_root();
  // Every rank must be started with the same command line: a rank given an
  // option that ends it early (--validate, --help, a usage error) while the
  // others run (an MPMD launch, mpirun -np 1 cfdrun --validate x : -np 1
  // cfdrun x) would leave them waiting in their first collective call for
  // ever. Compared before anything is parsed, so that all ranks then take
  // the same way out.
  if (world.size() > 1) {
    std::string mine;
    for (int a = 1; a < argc; ++a) mine += std::string(argv[a]) + '\n';
    if (const long differ = ranks_unlike_root(world, mine); differ > 0) {
      if (root)
        std::fprintf(stderr,
                     "cfdrun: error: %ld of %d ranks were started with a command line other than rank 0's; every "
                     "rank must be started with the same options and case\n",
                     differ, world.size());
      return cfd::exit_usage;
    }
  }
  // Help, listings and progress come from rank 0 (if /dev/null cannot be
  // opened, the other ranks simply keep printing).
  [[maybe_unused]] const std::FILE* silenced = root ? nullptr : std::freopen("/dev/null", "w", stdout);
  std::string case_file;
  std::vector<std::string> overrides;
  std::vector<char*> kokkos_args{argv[0]};
  bool validate = false, quiet = false, list_keys = false, markdown = false, list_solvers = false;
  std::string list_solver, restart_file;
  std::vector<std::string> user_sets;  // keys the user set, for --restart

  // Each option as the shared parser reads it (core/command_line.hpp), then
  // acted on in command-line order: a later --set or --output wins.
  cfd::cli::Parser parser("cfdrun");
  parser.stop_flag("--help", "-h")
      .stop_flag("--version")
      .option("--set", true)
      .option("--output")
      .flag("--overwrite")
      .option("--restart")
      .option("--wall-time")
      .flag("--validate")
      .flag("--quiet", "-q")
      .optional_value("--list-keys")
      .flag("--markdown")
      .flag("--list-solvers")
      .passthrough("--kokkos-")
      .case_file_hints();
  std::vector<std::string> kokkos_options;  // the strings kokkos_args points into
  try {
    const cfd::cli::Arguments args = parser.parse(argc, argv);
    if (args.stopped_at == "--help") {
      print_help();
      return 0;
    }
    if (args.stopped_at == "--version") {
      print_version();
      return 0;
    }
    for (const auto& given : args.options) {
      const std::string& option = given.option;
      const std::string& v = given.value;
      if (option == "--set") {
        user_sets.push_back(cfd::split_override(v).first);
        overrides.push_back(v);
      } else if (option == "--output") {
        overrides.push_back("output.dir=" + v);
        user_sets.push_back("output.dir");
      } else if (option == "--overwrite") {
        overrides.push_back("output.overwrite=true");
        user_sets.push_back("output.overwrite");
      } else if (option == "--restart") {
        restart_file = v;
      } else if (option == "--wall-time") {
        try {
          cfd::parse_wall_time(v);
        } catch (const std::invalid_argument& e) {
          throw std::invalid_argument(std::string("--wall-time ") + e.what());
        }
        overrides.push_back("run.wall_time=" + v);
      } else if (option == "--validate") {
        validate = true;
      } else if (option == "--quiet") {
        quiet = true;
      } else if (option == "--list-keys") {
        list_keys = true;
        list_solver = v;
      } else if (option == "--markdown") {
        markdown = true;
      } else if (option == "--list-solvers") {
        list_solvers = true;
      }
    }
    for (const auto& a : args.passthrough) check_kokkos_option(a);
    kokkos_options = args.passthrough;
    for (auto& a : kokkos_options) kokkos_args.push_back(a.data());
    if (args.positional.size() > 1)
      return usage_error("more than one case file ('" + args.positional[0] + "' and '" + args.positional[1] +
                         "'); cfdrun runs one case");
    if (!args.positional.empty()) case_file = args.positional[0];
  } catch (const std::exception& e) {
    return usage_error(e.what());
  }

  if (list_solvers) {
    // One line each, name and page first: tests/check_user_guide.py reads them.
    for (const auto& s : cfd::solvers()) std::printf("%-10s %-18s %s\n", s.name, s.keys_doc, s.summary);
    return 0;
  }
  if (list_keys) {
    bool listed = false;
    for (const auto& s : cfd::solvers()) {
      if (!list_solver.empty() && list_solver != s.name && !(s.former_name && list_solver == s.former_name)) continue;
      const auto keys = s.keys();
      if (markdown) {
        std::printf("%s", cfd::keys_markdown(keys).c_str());
      } else {
        std::printf("solver %s:\n", s.name);
        const std::size_t width = listing_width();
        for (const auto& key : keys) {
          // The allowed values and the choice a key goes with, as in the
          // user guide's tables.
          std::string help = key.help;
          if (key.type == cfd::KeyType::choice) {
            std::string values;
            for (const auto& c : key.choices) values += (values.empty() ? "" : "|") + c;
            help += " [" + values + "]";
          }
          if (!key.belongs_to.empty()) help += " (only with " + key.belongs_to + ")";
          if (key.on_restart != cfd::OnRestart::fixed)
            help += std::string(" [--restart: ") + cfd::on_restart_name(key.on_restart) + "]";
          char head[256];
          std::snprintf(head, sizeof head, "  %-26s %-8s default %-10s", key.path.c_str(), cfd::type_name(key.type),
                        key.default_value.empty() ? "-" : key.default_value.c_str());
          // A line that does not fit the terminal: the key's line, then its
          // meaning wrapped beneath it.
          if (width == 0 || std::strlen(head) + 1 + help.size() <= width)
            std::printf("%s %s\n", head, help.c_str());
          else {
            std::string key_line = head;
            key_line.erase(key_line.find_last_not_of(' ') + 1);
            std::printf("%s\n%s", key_line.c_str(), wrapped(help, 6, width).c_str());
          }
        }
      }
      listed = true;
    }
    if (!listed) return usage_error("--list-keys: no solver named '" + list_solver + "'");
    return 0;
  }
  if (case_file.empty() && restart_file.empty())
    return usage_error("no case file given (try 'cfdrun config/diffusion.yaml')");
  if (!case_file.empty() && !restart_file.empty())
    return usage_error("--restart continues the run stored in the checkpoint; give no case file ('" + case_file + "')");

  cfd::Config config;
  cfd::CheckpointHeader checkpoint;
  std::function<std::vector<std::string>(const cfd::Config&)> branch_notes;  // --restart with new numerics
  std::string failure;  // this rank's reading of the case, when it failed
  try {
    if (restart_file.empty()) {
      config = cfd::Config::from_file(case_file, overrides, cfd::solver_keys);
    } else {
      checkpoint = cfd::read_checkpoint_header(restart_file);
      const std::vector<cfd::KeySpec> keys = cfd::solver_keys(checkpoint.solver);
      const cfd::KeySpec* fixed = nullptr;
      std::string fixed_key;
      for (const auto& key : user_sets) {
        auto spec = std::find_if(keys.begin(), keys.end(), [&](const cfd::KeySpec& s) {
          return s.path == key || std::find(s.former.begin(), s.former.end(), key) != s.former.end();
        });
        // A user-named key (constants.y0) is its section's wildcard's
        // (constants.*): the formulas of the run read it.
        const size_t dot = key.rfind('.');
        if (spec == keys.end() && dot != std::string::npos)
          spec = std::find_if(keys.begin(), keys.end(),
                              [&](const cfd::KeySpec& s) { return s.path == key.substr(0, dot) + ".*"; });
        if (spec != keys.end() && spec->on_restart == cfd::OnRestart::fixed) fixed = &*spec, fixed_key = key;
      }
      if (fixed)
        throw cfd::ConfigError(
            "command line (--set " + fixed_key + "): error: '" + fixed_key +
            "' cannot change when a run continues from a checkpoint (its state holds the grid, "
            "physics and precision it was made with); --restart may change " +
            restart_keys(keys, cfd::OnRestart::same_bits) + " (the same bits as an unbroken run) and " +
            restart_keys(keys, cfd::OnRestart::branches) + " (the results then differ from an unbroken run)");
      // The run continues in the folder that holds the checkpoint, or, with
      // --output NEW, branches into NEW (a fresh folder; the checkpoint's is
      // left as it is).
      const std::string own = std::filesystem::path(restart_file).parent_path().string();
      const std::string home = own.empty() ? std::string(".") : own;
      std::string dir = home;
      for (const auto& o : overrides)
        if (o.rfind("output.dir=", 0) == 0) dir = o.substr(11);
      std::error_code ec;
      checkpoint.new_folder = !std::filesystem::equivalent(dir, home, ec);
      if (checkpoint.new_folder) {
        overrides.push_back("run.continued_from=" + restart_file + " (step " + std::to_string(checkpoint.step) + ")");
        // The new folder's history and series begin at the checkpoint.
        checkpoint.loop.history_bytes = -1;
        checkpoint.loop.series.clear();
        checkpoint.loop.kept.clear();
      } else {
        if (std::find(user_sets.begin(), user_sets.end(), "output.overwrite") != user_sets.end())
          throw cfd::ConfigError(
              "command line (--overwrite): error: a run continued in its own folder keeps what is there; "
              "--overwrite goes with --output NEW (a branch of the run into a folder that holds an earlier run)");
        overrides.push_back("output.dir=" + home);
      }
      // Numerics that change here make a branch of the run: said once.
      const cfd::Config stored = cfd::Config::from_string(
          checkpoint.configuration, restart_file + " (stored configuration)", {}, cfd::solver_keys);
      // The file's solver attribute chose the table of fixed keys above: it
      // must be the stored configuration's (a forged one would check the
      // --set keys against another solver's table).
      if (cfd::find_solver(stored.solver()) != cfd::find_solver(checkpoint.solver))
        throw cfd::ConfigError(restart_file +
                               ": error: cannot restart from this file: it is inconsistent: its solver "
                               "attribute '" +
                               checkpoint.solver + "' is not its stored configuration's solver '" + stored.solver() +
                               "'");
      // navier_stokes' time.cfl was a sum of the directions' Courant numbers
      // before cfdrun 0.2.0; it is now per direction, as in every gas solver
      // (physics/gas/time_step.hpp). Its old value would now allow steps
      // two or three times as long: the user chooses the new one.
      if (checkpoint.solver == "navier_stokes" && version_before(checkpoint.cfdrun_version, 0, 2) &&
          !(stored.get_real("time.dt") > 0) &&
          std::find(user_sets.begin(), user_sets.end(), "time.cfl") == user_sets.end()) {
        const double old_cfl = stored.get_real("time.cfl");
        const int directions = stored.get_int("grid.nz") > 1 ? 3 : 2;
        throw cfd::ConfigError(restart_file + ": error: this navier_stokes checkpoint was written by cfdrun " +
                               (checkpoint.cfdrun_version.empty() ? "before 0.2.0" : checkpoint.cfdrun_version) +
                               ", when time.cfl (" + cfd::format_real(old_cfl) +
                               ") was the sum of the directions' Courant numbers; it is now the Courant number along "
                               "each direction, as in every gas solver. Continue with --set time.cfl=" +
                               cfd::format_real(old_cfl / directions) + " (about the same step: " +
                               cfd::format_real(old_cfl) + "/" + std::to_string(directions) +
                               ") or another value; the results then differ from an unbroken run's in the last bits");
      }
      branch_notes = [keys, stored, step = checkpoint.step](const cfd::Config& now) {
        std::vector<std::string> notes;
        for (const auto& spec : keys)
          if (spec.on_restart == cfd::OnRestart::branches && now.given(spec.path) &&
              value_text(now, spec) != value_text(stored, spec))
            notes.push_back("cfdrun: note: " + spec.path + " changes from " + value_text(stored, spec) + " to " +
                            value_text(now, spec) + " at step " + std::to_string(step) +
                            ": from here the results differ from those of the run continued unchanged");
        return notes;
      };
      config = cfd::Config::from_string(checkpoint.configuration, restart_file + " (stored configuration)", overrides,
                                        cfd::solver_keys);
    }
    for (const auto& s : cfd::solvers())
      if (config.solver() == s.name) s.check(config);
    // What the run would refuse, --validate refuses too.
    cfd::run_settings(config);
  } catch (const cfd::ConfigError& e) {
    failure = e.what();
  }
  // Every rank must have read the same case, or none may start: a rank that
  // failed alone (its own copy of the file missing or different) would
  // leave the others waiting in the first collective call for ever.
  if (world.size() > 1) {
    const long failed = world.sum(failure.empty() ? 0L : 1L);
    if (failed > 0) {
      if (!failure.empty()) {
        if (root)
          std::fprintf(stderr, "%s\n", failure.c_str());
        else
          std::fprintf(stderr, "cfdrun: rank %d of %d: %s\n", world.rank(), world.size(), failure.c_str());
      } else if (root) {
        std::fprintf(stderr, "cfdrun: error: %ld of %d ranks could not read the case (their messages above)\n", failed,
                     world.size());
      }
      return cfd::exit_usage;
    }
    // An initial state read from a file is part of the case: ranks that read
    // different copies (nodes without a shared disk) would start a mixed
    // state. Its bytes' digest is compared with the case.
    const std::string mine = config.resolved_yaml() + "\n" + restart_file + "\n" + initial_file_digest(config);
    const bool same = world.broadcast(mine) == mine;
    if (const long differ = world.sum(same ? 0L : 1L); differ > 0) {
      if (!same)
        std::fprintf(stderr, "cfdrun: error: rank %d of %d resolved a case different from rank 0's\n", world.rank(),
                     world.size());
      if (root)
        std::fprintf(stderr,
                     "cfdrun: error: %ld of %d ranks resolved a case different from rank 0's (a different case "
                     "file, or different files on different nodes); every rank must run the same case\n",
                     differ, world.size());
      return cfd::exit_usage;
    }
  } else if (!failure.empty()) {
    std::fprintf(stderr, "%s\n", failure.c_str());
    return cfd::exit_usage;
  }
  if (root) {
    for (const auto& w : config.warnings()) std::fprintf(stderr, "%s\n", w.c_str());
    if (branch_notes)
      for (const auto& n : branch_notes(config)) std::fprintf(stderr, "%s\n", n.c_str());
  }
  // --validate of a case builds its initial state and checks it as the run
  // would (formulas giving a negative density, an inflow side at zero
  // pressure); a checkpoint's state was checked when it was written.
  const bool check_states = validate && restart_file.empty();
  const auto say_valid = [&] {
    std::printf("# %s: valid; resolved configuration (defaults filled in)\n%s",
                (case_file.empty() ? restart_file : case_file).c_str(), config.resolved_yaml().c_str());
  };
  if (validate && !check_states) {
    say_valid();
    return 0;
  }

  cfd::RunContext context;
  context.case_name = std::filesystem::path(case_file).stem().string();
  context.quiet = quiet || !root;
  context.validate_states = check_states;
  for (const auto& s : cfd::solvers()) {
    context.solver_names.push_back(s.name);
    if (s.former_name) context.solver_names.push_back(s.former_name);
  }
  if (!restart_file.empty()) {
    context.case_name = checkpoint.case_name;
    context.restart = &checkpoint;
    if (!context.quiet)
      std::printf("continuing from %s: step %ld, t = %s\n", restart_file.c_str(), checkpoint.step,
                  cfd::format_real(checkpoint.time).c_str());
  }
  cfd::job::install_signal_handlers();
  int status = cfd::exit_failed;
  int kargc = static_cast<int>(kokkos_args.size());
  cfd::KokkosSession kokkos(kargc, kokkos_args.data());
  try {
    for (const auto& s : cfd::solvers())
      if (config.solver() == s.name) status = s.run(config, context);
  } catch (const cfd::ConfigError& e) {  // every rank finds the same (a process grid that cannot work)
    if (root) std::fprintf(stderr, "%s\n", e.what());
    status = cfd::exit_usage;
  } catch (const cfd::RunStopped& e) {  // every rank, after the checkpoint
    if (root) std::fprintf(stderr, "cfdrun: %s\n", e.what());
    status = cfd::exit_stopped;
  } catch (const cfd::CollectiveError& e) {  // every rank stops here together
    if (root) std::fprintf(stderr, "cfdrun: error: %s\n", e.what());
    status = cfd::exit_failed;
  } catch (const std::exception& e) {
    const std::string message = cfd::describe_failure(e, "A smaller grid, fp32");
    // This rank alone: the others may wait for it in a collective call, so
    // it ends them all rather than leave them hanging.
    if (world.size() > 1) {
      std::fprintf(stderr, "cfdrun: error on rank %d of %d: %s\n", world.rank(), world.size(), message.c_str());
      world.abort(1);
    }
    std::fprintf(stderr, "cfdrun: error: %s\n", message.c_str());
    status = cfd::exit_failed;
  }
  if (check_states && status == cfd::exit_done) say_valid();
  return status;
}
