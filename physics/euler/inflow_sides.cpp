#include "physics/euler/inflow_sides.hpp"

#include "core/case_formulas.hpp"

#include <memory>
#include <string>

namespace cfd::euler {

const char* const side_names[side_count] = {"x_lo", "x_hi", "y_lo", "y_hi", "z_lo", "z_hi"};

namespace {

struct SideFormulas {
  Expression rho, vx, vy, vz, p, where;
};

}  // namespace

std::vector<KeySpec> inflow_keys() {
  std::vector<KeySpec> k;
  for (const char* side : side_names) {
    const std::string s = std::string("inflow_") + side + ".";
    const std::string of = " of the ghost cells beyond " + std::string(side) +
                           ": a formula of x, y, z (3D grids), the time t, the constants.* and pi";
    const size_t first = k.size();
    k.push_back({s + "rho", KeyType::string, "1", "density" + of});
    k.push_back({s + "vx", KeyType::string, "0", "x velocity" + of});
    k.push_back({s + "vy", KeyType::string, "0", "y velocity" + of});
    k.push_back({s + "vz", KeyType::string, "0", "z velocity" + of});
    k.push_back({s + "p", KeyType::string, "1", "pressure" + of});
    k.push_back({s + "where", KeyType::string, "1",
                 "where along the side the inflow state holds: a formula of x, y, z and t, non-zero there "
                 "(e.g. x < 1/6); elsewhere the side is inflow_" +
                     std::string(side) + ".elsewhere"});
    k.push_back({s + "elsewhere",
                 KeyType::choice,
                 "outflow",
                 "what the side is where inflow_" + std::string(side) + ".where is zero",
                 {"outflow", "reflecting"}});
    for (size_t n = first; n < k.size(); ++n) k[n].belongs_to = std::string("boundary.") + side + "=inflow";
  }
  return k;
}

std::array<InflowSide, side_count> inflow_sides(const Config& c, const std::array<BoundaryKind, side_count>& kinds) {
  std::array<InflowSide, side_count> sides;
  bool any = false;
  for (BoundaryKind k : kinds) any = any || k == BoundaryKind::inflow;
  if (!any) return sides;
  const auto constants = case_constants(c);
  for (int s = 0; s < side_count; ++s) {
    if (kinds[s] != BoundaryKind::inflow) continue;
    const std::string prefix = std::string("inflow_") + side_names[s] + ".";
    auto formula = [&](const char* key) { return case_formula(c, prefix + key, constants); };
    // Shared: an InflowSide is copied with the Params that hold it, an
    // Expression is not copyable.
    auto f = std::make_shared<const SideFormulas>(
        SideFormulas{formula("rho"), formula("vx"), formula("vy"), formula("vz"), formula("p"), formula("where")});
    InflowSide& side = sides[s];
    side.state = [f](double x, double y, double z, double t) {
      return gas::Primitive<double>{f->rho(x, y, z, t), f->vx(x, y, z, t), f->vy(x, y, z, t), f->vz(x, y, z, t),
                                    f->p(x, y, z, t)};
    };
    side.applies = [f](double x, double y, double z, double t) { return f->where(x, y, z, t) != 0; };
    side.elsewhere =
        c.get_string(prefix + "elsewhere") == "reflecting" ? BoundaryKind::reflecting : BoundaryKind::outflow;
    side.steady = !(f->rho.uses_time() || f->vx.uses_time() || f->vy.uses_time() || f->vz.uses_time() ||
                    f->p.uses_time() || f->where.uses_time());
  }
  return sides;
}

}  // namespace cfd::euler
