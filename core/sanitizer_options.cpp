// Sanitizer defaults compiled into every cfdrun executable of a sanitizer
// build (core/CMakeLists.txt adds this file to the targets that link cfdrun_core
// only when CMAKE_CXX_FLAGS has -fsanitize=address). They make the debug
// preset pass as it stands, with no option set by hand, and hold for every
// way a test starts a program: ctest, bash, Python, mpirun.
//
// allocator_may_return_null: an allocation larger than the machine is then
// a null pointer / std::bad_alloc, which cfdrun turns into its own "out of
// memory" message (cli.out_of_memory asserts that message), instead of
// ASan's report and abort.
//
// The suppressions name only third-party frames: Open MPI, its plugins and
// the libraries it loads keep allocations until exit by design (the MPI
// standard lets an implementation do so), and those reports would otherwise
// end every multi-rank test. A leak whose stack holds none of these frames,
// i.e. one of cfdrun's own, still fails the test.
#include <cstdlib>

namespace {
// Open MPI unloads its plugins (mca_*.so) in MPI_Finalize, and LeakSanitizer,
// which reports at exit, then sees their frames as "<unknown module>", which
// no suppression can name. Open MPI's own switch keeps them loaded; set
// before main, so before MPI_Init (a value the user set is kept).
__attribute__((constructor)) void keep_mpi_plugins_loaded() {
  setenv("OMPI_MCA_mca_base_component_disable_dlclose", "1", 0);
}
}  // namespace

extern "C" {

// fast_unwind_on_malloc=0: Open MPI's libraries have no frame pointers, and
// the fast unwinder stops in them before the frame a suppression names.
const char* __asan_default_options() { return "allocator_may_return_null=1:detect_leaks=1:fast_unwind_on_malloc=0"; }

const char* __ubsan_default_options() { return "halt_on_error=1:print_stacktrace=1"; }

const char* __lsan_default_suppressions() {
  return "leak:libmpi.so\n"
         "leak:libopen-pal.so\n"
         "leak:libopen-rte.so\n"
         "leak:libpmix.so\n"
         "leak:libhwloc.so\n"
         "leak:libevent\n"
         "leak:mca_\n"
         "leak:ompi_\n"
         "leak:opal_\n"
         "leak:orte_\n"
         "leak:PMPI_Init\n"
         "leak:MPI_Init\n"
         "leak:PMPI_Finalize\n"
         "leak:MPI_Finalize\n";
}
}
