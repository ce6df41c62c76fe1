// HDF5 snapshots, XDMF, the text format and the output-folder policy.
#include "core/field_compare.hpp"
#include "core/hdf5_file.hpp"
#include "core/snapshot.hpp"
#include "core/text_field.hpp"
#include "tests/test_files.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace {

using cfd::test::fresh_dir;
using cfd::test::slurp;

}  // namespace

template <class Real>
void round_trip(const std::string& tag) {
  const std::string dir = fresh_dir("h5" + tag);
  cfd::prepare_output_dir(dir, false);
  const cfd::GridBlock grid = cfd::GridBlock::whole(2, cfd::Centering::node, {5, 3, 1}, 0, {0, 0, 0}, {4, 2, 0});
  cfd::SnapshotSeries series(dir, "test", cfd::decompose(grid, {false, false, false}),
                             {"diffusion", "fp", "left", "Serial", "solver: diffusion\n"});
  std::vector<Real> u(15), w(15);
  for (int k = 0; k < 15; ++k) {
    u[k] = static_cast<Real>(1.0 / (k + 3));
    w[k] = static_cast<Real>(-k * 1e-3);
  }
  series.write<Real>(0, 0.0, {{"u", w}});
  const std::string path = series.write<Real>(7, 0.7, {{"u", u}, {"w", w}}, {{"timing_loop_s", 1.5}});
  EXPECT_EQ(path, dir + "/test_00000007.h5");
  EXPECT_FALSE(fs::exists(path + ".tmp"));

  const cfd::H5Array a = cfd::h5_read_array(path, "fields/u");
  ASSERT_EQ(a.dims, (std::vector<hsize_t>{3, 5}));  // [ny][nx], x fastest
  EXPECT_EQ(a.stored_bytes, static_cast<int>(sizeof(Real)));
  for (int k = 0; k < 15; ++k) EXPECT_EQ(a.values[k], static_cast<double>(u[k]));
  const cfd::H5Array x = cfd::h5_read_array(path, "grid/x");
  EXPECT_EQ(x.values, (std::vector<double>{0, 1, 2, 3, 4}));
  EXPECT_EQ(cfd::h5_read_real_attribute(path, "time"), 0.7);
  EXPECT_EQ(cfd::h5_read_real_attribute(path, "step"), 7);
  EXPECT_EQ(cfd::h5_read_real_attribute(path, "timing_loop_s"), 1.5);
  EXPECT_EQ(cfd::h5_read_string_attribute(path, "solver"), "diffusion");
  EXPECT_EQ(cfd::h5_read_string_attribute(path, "configuration"), "solver: diffusion\n");
  EXPECT_TRUE(cfd::h5_has_attribute(path, "kokkos_version"));
  EXPECT_THROW(cfd::h5_read_array(path, "fields/nope"), std::runtime_error);

  const std::string xdmf = slurp(series.xdmf_path());
  EXPECT_NE(xdmf.find("CollectionType=\"Temporal\""), std::string::npos);
  EXPECT_NE(xdmf.find("<Time Value=\"0.7\"/>"), std::string::npos);
  EXPECT_NE(xdmf.find("test_00000007.h5:/fields/w"), std::string::npos);
  EXPECT_NE(xdmf.find("test_00000000.h5:/fields/u"), std::string::npos);
  EXPECT_NE(xdmf.find("Precision=\"" + std::to_string(sizeof(Real)) + "\""), std::string::npos);
  // Node-centred: the snapshot's own coordinates, one point thick; no mesh file.
  EXPECT_NE(xdmf.find("<Topology TopologyType=\"3DRectMesh\" Dimensions=\"1 3 5\"/>"), std::string::npos);
  EXPECT_NE(xdmf.find("<DataItem Dimensions=\"5\" NumberType=\"Float\" Precision=\"8\" "
                      "Format=\"HDF\">test_00000007.h5:/grid/x</DataItem>"),
            std::string::npos);
  EXPECT_NE(xdmf.find("<DataItem Dimensions=\"1 3 5\" NumberType=\"Float\""), std::string::npos);
  EXPECT_FALSE(fs::exists(dir + "/test_mesh.hdf5"));
  fs::remove_all(dir);
}

TEST(Hdf5, RoundTripDouble) { round_trip<double>("d"); }
TEST(Hdf5, RoundTripFloat) { round_trip<float>("f"); }

TEST(Hdf5, UncommittedFileLeavesNothing) {
  const std::string dir = fresh_dir("uncommitted");
  fs::create_directories(dir);
  {
    cfd::H5Writer w(dir + "/a.h5");
    const double v[2] = {1, 2};
    w.dataset("x", v, {2});
  }
  EXPECT_TRUE(fs::is_empty(dir));
  fs::remove_all(dir);
}

TEST(Hdf5, CellCentredGridHasFaces) {
  const std::string dir = fresh_dir("cells");
  cfd::prepare_output_dir(dir, false);
  const cfd::GridBlock grid =
      cfd::GridBlock::whole(2, cfd::Centering::cell, {4, 2, 1}, 2, {-0.5, -0.5, 0}, {0.5, 0.5, 0});
  cfd::SnapshotSeries series(dir, "c", cfd::decompose(grid, {false, false, false}),
                             {"x", "fp64", "right", "Serial", ""});
  const std::string path = series.write<double>(0, 0.0, {{"rho", std::vector<double>(8, 1.0)}});
  EXPECT_EQ(cfd::h5_read_array(path, "grid/x").values, (std::vector<double>{-0.375, -0.125, 0.125, 0.375}));
  EXPECT_EQ(cfd::h5_read_array(path, "grid/x_faces").values, (std::vector<double>{-0.5, -0.25, 0, 0.25, 0.5}));
  // The cells as an unstructured mesh (write_xdmf): quadrilaterals, in one
  // mesh file, after the attributes (a grid's first file is its snapshot).
  const std::string xdmf = slurp(series.xdmf_path());
  EXPECT_EQ(xdmf.find("3DRectMesh"), std::string::npos);
  const std::string grid_xml =
      "   <Grid Name=\"step 0\" GridType=\"Uniform\">\n"
      "    <Time Value=\"0.0\"/>\n"
      "    <Attribute Name=\"rho\" AttributeType=\"Scalar\" Center=\"Cell\">\n"
      "     <DataItem Dimensions=\"2 4\" NumberType=\"Float\" Precision=\"8\" "
      "Format=\"HDF\">c_00000000.h5:/fields/rho</DataItem>\n"
      "    </Attribute>\n"
      "    <Topology TopologyType=\"Quadrilateral\" NumberOfElements=\"8\">\n"
      "     <DataItem Dimensions=\"8 4\" NumberType=\"Int\" Precision=\"8\" "
      "Format=\"HDF\">c_mesh.hdf5:/cells</DataItem>\n"
      "    </Topology>\n"
      "    <Geometry GeometryType=\"XY\">\n"
      "     <DataItem Dimensions=\"15 2\" NumberType=\"Float\" Precision=\"8\" "
      "Format=\"HDF\">c_mesh.hdf5:/points</DataItem>\n"
      "    </Geometry>\n"
      "   </Grid>\n";
  EXPECT_NE(xdmf.find(grid_xml), std::string::npos) << xdmf;
  // The mesh: the faces' corners, x fastest, and each cell's corners
  // counter-clockwise, cells x fastest.
  const std::string mesh = dir + "/c_mesh.hdf5";
  const cfd::H5Array points = cfd::h5_read_array(mesh, "points");
  ASSERT_EQ(points.dims, (std::vector<hsize_t>{15, 2}));
  const std::vector<double> faces_x{-0.5, -0.25, 0, 0.25, 0.5}, faces_y{-0.5, 0, 0.5};
  for (size_t j = 0; j < 3; ++j)
    for (size_t i = 0; i < 5; ++i) {
      EXPECT_EQ(points.values[2 * (j * 5 + i)], faces_x[i]);
      EXPECT_EQ(points.values[2 * (j * 5 + i) + 1], faces_y[j]);
    }
  const std::vector<long> cells = cfd::h5_read_integers(mesh, "cells");
  ASSERT_EQ(cells.size(), 32u);
  EXPECT_EQ(std::vector<long>(cells.begin(), cells.begin() + 4), (std::vector<long>{0, 1, 6, 5}));
  EXPECT_EQ(std::vector<long>(cells.begin() + 28, cells.end()), (std::vector<long>{8, 9, 14, 13}));
  EXPECT_FALSE(fs::exists(mesh + ".tmp"));
  // Written with the first snapshot, and again only when it is gone.
  fs::remove(mesh);
  series.write<double>(1, 0.5, {{"rho", std::vector<double>(8, 2.0)}});
  EXPECT_TRUE(fs::exists(mesh));
  fs::remove_all(dir);
}

// 3D: datasets [nz][ny][nx], x fastest, and a 3DRectMesh of the faces (cells)
// or points (nodes) in the XDMF index, no mesh file.
TEST(Hdf5, ThreeDimensionalGridIsARectilinearVolume) {
  const std::string dir = fresh_dir("volume");
  cfd::prepare_output_dir(dir, false);
  const cfd::GridBlock grid = cfd::GridBlock::whole(3, cfd::Centering::cell, {4, 3, 2}, 2, {0, 0, 0}, {1, 1, 1});
  cfd::SnapshotSeries series(dir, "v", cfd::decompose(grid, {false, false, false}),
                             {"x", "fp64", "right", "Serial", ""});
  std::vector<double> rho(24), vx(24);
  for (int k = 0; k < 24; ++k) rho[k] = 1 + k, vx[k] = -k;
  const std::string path = series.write<double>(0, 0.0, {{"rho", rho}, {"vx", vx}});
  const cfd::H5Array a = cfd::h5_read_array(path, "fields/rho");
  ASSERT_EQ(a.dims, (std::vector<hsize_t>{2, 3, 4}));
  EXPECT_EQ(a.values, rho);
  EXPECT_EQ(cfd::h5_read_array(path, "grid/z").values, (std::vector<double>{0.25, 0.75}));
  EXPECT_EQ(cfd::h5_read_array(path, "grid/z_faces").values, (std::vector<double>{0, 0.5, 1}));
  const std::string xdmf = slurp(series.xdmf_path());
  const std::string topology =
      "    <Topology TopologyType=\"3DRectMesh\" Dimensions=\"3 4 5\"/>\n"
      "    <Geometry GeometryType=\"VXVYVZ\">\n"
      "     <DataItem Dimensions=\"5\" NumberType=\"Float\" Precision=\"8\" "
      "Format=\"HDF\">v_00000000.h5:/grid/x_faces</DataItem>\n"
      "     <DataItem Dimensions=\"4\" NumberType=\"Float\" Precision=\"8\" "
      "Format=\"HDF\">v_00000000.h5:/grid/y_faces</DataItem>\n"
      "     <DataItem Dimensions=\"3\" NumberType=\"Float\" Precision=\"8\" "
      "Format=\"HDF\">v_00000000.h5:/grid/z_faces</DataItem>\n"
      "    </Geometry>\n"
      "    <Attribute Name=\"rho\" AttributeType=\"Scalar\" Center=\"Cell\">\n"
      "     <DataItem Dimensions=\"2 3 4\" NumberType=\"Float\" Precision=\"8\" "
      "Format=\"HDF\">v_00000000.h5:/fields/rho</DataItem>\n";
  EXPECT_NE(xdmf.find(topology), std::string::npos) << xdmf;
  EXPECT_NE(xdmf.find("Function=\"JOIN($0, 0 * $0, 0 * $0)\" Dimensions=\"2 3 4 3\""), std::string::npos) << xdmf;
  EXPECT_FALSE(fs::exists(dir + "/v_mesh.hdf5"));
  fs::remove_all(dir);
  // Nodes: the points themselves.
  const std::string node_dir = fresh_dir("volume_nodes");
  cfd::prepare_output_dir(node_dir, false);
  const cfd::GridBlock nodes = cfd::GridBlock::whole(3, cfd::Centering::node, {4, 3, 2}, 1, {0, 0, 0}, {3, 2, 1});
  cfd::SnapshotSeries node_series(node_dir, "n", cfd::decompose(nodes, {false, false, false}),
                                  {"x", "fp64", "right", "Serial", ""});
  node_series.write<double>(0, 0.0, {{"u", rho}});
  const std::string node_xdmf = slurp(node_series.xdmf_path());
  EXPECT_NE(node_xdmf.find("<Topology TopologyType=\"3DRectMesh\" Dimensions=\"2 3 4\"/>"), std::string::npos)
      << node_xdmf;
  EXPECT_NE(node_xdmf.find("n_00000000.h5:/grid/z</DataItem>"), std::string::npos) << node_xdmf;
  fs::remove_all(node_dir);
}

TEST(Hdf5, OneDimensionalCellsAreLines) {
  const std::string dir = fresh_dir("cells1d");
  const cfd::GridBlock grid = cfd::GridBlock::whole(1, cfd::Centering::cell, {4, 1, 1}, 2, {0, 0, 0}, {1, 0, 0});
  cfd::SnapshotSeries series(dir, "s", cfd::decompose(grid, {false, false, false}),
                             {"sod", "fp32", "right", "Serial", ""});
  fs::create_directories(dir);
  series.write<float>(3, 0.25, {{"rho", std::vector<float>(4, 1.0f)}, {"u", std::vector<float>(4, 0.5f)}});
  const std::string xdmf = slurp(series.xdmf_path());
  EXPECT_NE(xdmf.find("    <Topology TopologyType=\"Polyline\" NodesPerElement=\"2\" NumberOfElements=\"4\">\n"
                      "     <DataItem Dimensions=\"4 2\" NumberType=\"Int\" Precision=\"8\" "
                      "Format=\"HDF\">s_mesh.hdf5:/cells</DataItem>\n"),
            std::string::npos)
      << xdmf;
  EXPECT_NE(xdmf.find("<DataItem Dimensions=\"5 2\" NumberType=\"Float\" Precision=\"8\" "
                      "Format=\"HDF\">s_mesh.hdf5:/points</DataItem>"),
            std::string::npos);
  EXPECT_NE(xdmf.find("<DataItem Dimensions=\"4\" NumberType=\"Float\" Precision=\"4\" "
                      "Format=\"HDF\">s_00000003.h5:/fields/rho</DataItem>"),
            std::string::npos);
  // sod's u is the velocity vector (u, 0, 0), a function of the 1D dataset.
  EXPECT_NE(xdmf.find("Function=\"JOIN($0, 0 * $0, 0 * $0)\" Dimensions=\"4 3\""), std::string::npos);
  const cfd::H5Array points = cfd::h5_read_array(dir + "/s_mesh.hdf5", "points");
  EXPECT_EQ(points.values, (std::vector<double>{0, 0, 0.25, 0, 0.5, 0, 0.75, 0, 1, 0}));
  EXPECT_EQ(cfd::h5_read_integers(dir + "/s_mesh.hdf5", "cells"), (std::vector<long>{0, 1, 1, 2, 2, 3, 3, 4}));
  fs::remove_all(dir);
}

TEST(OutputDir, MeshFileIsTheRunsOwn) {
  // The mesh file obeys the folder's rules: listed in the manifest (so
  // --overwrite replaces it), a user's file of that name is refused, a link
  // there is never written through.
  const std::string dir = fresh_dir("meshfile");
  const cfd::GridBlock grid = cfd::GridBlock::whole(1, cfd::Centering::cell, {4, 1, 1}, 2, {0, 0, 0}, {1, 0, 0});
  const auto rho = std::vector<double>(4, 1.0);
  {
    auto folder = std::make_shared<cfd::OutputFolder>(dir, false, false);
    cfd::SnapshotSeries series(dir, "sod", cfd::decompose(grid, {false, false, false}), {}, folder);
    series.write<double>(0, 0.0, {{"rho", rho}});
    EXPECT_TRUE(folder->listed("sod_mesh.hdf5"));
  }
  EXPECT_NE(slurp(dir + "/.cfdrun-manifest").find("\nsod_mesh.hdf5\n"), std::string::npos);
  {
    // --overwrite: the earlier run's mesh is replaced (here by a finer grid).
    const cfd::GridBlock finer = cfd::GridBlock::whole(1, cfd::Centering::cell, {8, 1, 1}, 2, {0, 0, 0}, {1, 0, 0});
    auto folder = std::make_shared<cfd::OutputFolder>(dir, true, false);
    cfd::SnapshotSeries series(dir, "sod", cfd::decompose(finer, {false, false, false}), {}, folder);
    series.write<double>(0, 0.0, {{"rho", std::vector<double>(8, 1.0)}});
    series.under_way();
    EXPECT_EQ(cfd::h5_read_integers(dir + "/sod_mesh.hdf5", "cells").size(), 16u);
  }
  fs::remove_all(dir);
  const std::string outside = dir + "_outside";
  for (const bool link : {false, true}) {
    std::ofstream(outside) << "mine";
    auto plant = [&] {
      if (link)
        fs::create_symlink(outside, dir + "/sod_mesh.hdf5");
      else
        std::ofstream(dir + "/sod_mesh.hdf5") << "mine";
    };
    // In the folder before the run: the folder is refused, even with --overwrite.
    fs::create_directories(dir);
    plant();
    EXPECT_THROW(cfd::OutputFolder(dir, false, false), std::runtime_error);
    EXPECT_THROW(cfd::OutputFolder(dir, true, false), std::runtime_error);
    fs::remove_all(dir);
    // Put there while the run is under way: the mesh is not written, nor an
    // index that would name it.
    auto folder = std::make_shared<cfd::OutputFolder>(dir, false, false);
    plant();
    cfd::SnapshotSeries series(dir, "sod", cfd::decompose(grid, {false, false, false}), {}, folder);
    EXPECT_THROW(series.write<double>(0, 0.0, {{"rho", rho}}), std::runtime_error);
    EXPECT_EQ(slurp(outside), "mine");
    EXPECT_EQ(fs::is_symlink(dir + "/sod_mesh.hdf5"), link);
    EXPECT_FALSE(fs::exists(dir + "/sod.xdmf"));
    folder.reset();
    fs::remove_all(dir);
    fs::remove(outside);
  }
}

TEST(OutputDir, RefusesToOverwriteUnlessTold) {
  const std::string dir = fresh_dir("outdir");
  cfd::prepare_output_dir(dir, false);
  cfd::prepare_output_dir(dir, false);  // an empty folder is fine
  {
    cfd::OutputFolder run(dir, false, false);
    std::ofstream(dir + "/diffusion_00000000.h5") << "x";
    run.wrote(dir + "/diffusion_00000000.h5");
  }
  std::ofstream(dir + "/notes.md") << "mine";
  std::ofstream(dir + "/mine.h5") << "mine";  // looks like a result, but no run wrote it
  try {
    cfd::prepare_output_dir(dir, false);
    ADD_FAILURE() << "existing results were not protected";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("--overwrite"), std::string::npos);
  }
  {
    cfd::OutputFolder run(dir, true, false);
    EXPECT_TRUE(fs::exists(dir + "/diffusion_00000000.h5"));  // kept until the new run is under way
    run.retire_previous();
  }
  EXPECT_FALSE(fs::exists(dir + "/diffusion_00000000.h5"));
  EXPECT_TRUE(fs::exists(dir + "/notes.md"));  // only files a run's manifest lists are removed
  EXPECT_TRUE(fs::exists(dir + "/mine.h5"));
  fs::remove_all(dir);
}

TEST(OutputDir, OneRunAtATime) {
  const std::string dir = fresh_dir("locked");
  cfd::OutputFolder first(dir, false, false);
  try {
    cfd::OutputFolder second(dir, true, false);
    ADD_FAILURE() << "a second run was let into a locked folder";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("another cfdrun is writing to this folder"), std::string::npos) << e.what();
  }
  fs::remove_all(dir);
}

TEST(TextField, RoundTripIsExact) {
  const std::string dir = fresh_dir("text");
  fs::create_directories(dir);
  std::vector<double> v = {0.0, 1.0 / 3.0, -2.5e-300, 0.1, 1e300, 7.0};
  cfd::write_text_field(dir + "/f.txt", 3, 2, v);
  const cfd::TextField t = cfd::read_text_field(dir + "/f.txt");
  EXPECT_EQ(t.nx, 3);
  EXPECT_EQ(t.ny, 2);
  EXPECT_EQ(t.values, v);
  fs::remove_all(dir);
}

TEST(TextField, ReadsFortranExponentsAndReportsBadLines) {
  const std::string dir = fresh_dir("textbad");
  fs::create_directories(dir);
  std::ofstream(dir + "/ok.txt") << "2 1\n  1.5D-01\n 2.0E+00\n";
  EXPECT_EQ(cfd::read_text_field(dir + "/ok.txt").values, (std::vector<double>{0.15, 2.0}));
  std::ofstream(dir + "/bad.txt") << "2 1\n1.0\nabc\n";
  try {
    cfd::read_text_field(dir + "/bad.txt");
    ADD_FAILURE();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("bad.txt:3:"), std::string::npos) << e.what();
  }
  std::ofstream(dir + "/short.txt") << "2 2\n1.0\n";
  EXPECT_THROW(cfd::read_text_field(dir + "/short.txt"), std::runtime_error);
  std::ofstream(dir + "/header.txt") << "2\n1.0\n";
  EXPECT_THROW(cfd::read_text_field(dir + "/header.txt"), std::runtime_error);
  fs::remove_all(dir);
}

TEST(Compare, MetricsOnAKnownCase) {
  const std::vector<double> ref = {1.0, 2.0, 3.0, 4.0};
  const std::vector<double> cand = {1.0, 2.5, 3.0, 3.0};
  const cfd::Comparison c = cfd::compare_fields(ref, cand, {1e-12, 0.2});
  EXPECT_EQ(c.count, 4);
  EXPECT_DOUBLE_EQ(c.max_abs, 1.0);
  EXPECT_DOUBLE_EQ(c.rmse, std::sqrt((0.25 + 1.0) / 4));
  EXPECT_DOUBLE_EQ(c.rel_l2, std::sqrt(1.25 / 30.0));
  EXPECT_DOUBLE_EQ(c.mass_diff, -0.5);
  EXPECT_EQ(c.failures, 2);  // 0.5 > 0.2*2 and 1.0 > 0.2*4
  EXPECT_EQ(c.worst_index, 3);
}

TEST(Compare, NaNFails) {
  const cfd::Comparison c = cfd::compare_fields({1.0, 2.0}, {1.0, std::nan("")}, {1, 1});
  EXPECT_EQ(c.failures, 1);
  EXPECT_THROW(cfd::compare_fields({1.0}, {1.0, 2.0}, {0, 0}), std::invalid_argument);
}

TEST(Compare, DefaultTolerances) {
  EXPECT_EQ(cfd::default_tolerance(8, 8).atol, 1e-12);
  EXPECT_EQ(cfd::default_tolerance(8, 8).rtol, 1e-10);
  EXPECT_EQ(cfd::default_tolerance(4, 4).rtol, 1e-5);
  EXPECT_EQ(cfd::default_tolerance(8, 4).rtol, 1e-4);
}

// Issue #34: the tools' readers on input that is not a result.
TEST(TextField, RefusesDevicesLongLinesAndImpossibleHeaders) {
  auto message = [](const std::string& path) {
    try {
      cfd::read_text_field(path);
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("(read)");
  };
  // /dev/zero has no end: refused before a byte is read.
  EXPECT_NE(message("/dev/zero").find("/dev/zero: not a regular file"), std::string::npos) << message("/dev/zero");
  const std::string dir = fresh_dir("textbounds");
  fs::create_directories(dir);
  std::ofstream(dir + "/long.txt") << "2 1\n1.0\n" << std::string(5000, '1') << "\n";
  EXPECT_NE(message(dir + "/long.txt").find("long.txt:3: a line longer than 4096 characters"), std::string::npos)
      << message(dir + "/long.txt");
  std::ofstream(dir + "/header.txt") << "100000 100000\n1.0\n";
  EXPECT_NE(message(dir + "/header.txt").find("values, but the 18-byte file cannot hold them"), std::string::npos)
      << message(dir + "/header.txt");
  std::ofstream(dir + "/ok.txt") << "1 2\n1.0\n2.0";  // no newline at the end: still read
  EXPECT_EQ(cfd::read_text_field(dir + "/ok.txt").values, (std::vector<double>{1.0, 2.0}));
  fs::remove_all(dir);
}

// A crash in the reading child (HDF5 1.10 on a damaged file) becomes status
// 2 and a line naming the file read last; the child's own status passes.
TEST(Hdf5, GuardedReaderTurnsACrashIntoStatusTwo) {
  EXPECT_EQ(cfd::h5_run_guarded("test", [] { return 3; }), 3);
  testing::internal::CaptureStderr();
  const int status = cfd::h5_run_guarded("test", [] {
    cfd::h5_is_hdf5("no/such/damaged.h5");
    std::raise(SIGSEGV);
    return 0;
  });
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_EQ(status, 2);
  EXPECT_NE(said.find("test: error: no/such/damaged.h5: damaged HDF5 file"), std::string::npos) << said;
}
