// The exact sphere–mesh contact (src/sim/README.md §Exact sphere–mesh contact, SphereHullCollision.h): closed forms on
// a cube (face, edge, vertex, inside, margin), the hulls it refuses, and the same pairs through MuJoCo's own MPR on
// random poses (within MPR's tolerance), and the trial models that use it.
#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>

#include "core/Math.h"
#include "sim/CollisionPrefilter.h"
#include "sim/SimModel.h"
#include "sim/SphereHullCollision.h"
#include "../support/GraspedDefaultWorld.h"
#include "../support/TestPaths.h"

using namespace sg;
using namespace sg::sim;

namespace {

constexpr double kHalf = 0.02;    // m, the cube's half side
constexpr double kRadius = 0.005;  // m
constexpr double kFloat = 1e-9;    // m: MuJoCo keeps mesh vertices as float (0.02 m is stored to ~4e-10 m)

// The cube [-h, h]³ as 8 vertices and 12 triangles; every other triangle wound inwards (the hull does not rely on
// the winding).
void cubeMesh(std::vector<float>& v, std::vector<int>& t, double h = kHalf) {
  v.clear();
  for (int i = 0; i < 8; ++i)
    for (int k = 0; k < 3; ++k) v.push_back(static_cast<float>(((i >> k) & 1) ? h : -h));
  // Faces as quads of vertex bits (x = bit 0, y = bit 1, z = bit 2), each split in two.
  const int quads[6][4] = {{0, 2, 6, 4}, {1, 5, 7, 3}, {0, 4, 5, 1}, {2, 3, 7, 6}, {0, 1, 3, 2}, {4, 6, 7, 5}};
  t.clear();
  for (const auto& q : quads) {
    t.insert(t.end(), {q[0], q[1], q[2]});
    t.insert(t.end(), {q[0], q[3], q[2]});
  }
}

HullShape cube() {
  std::vector<float> v;
  std::vector<int> t;
  cubeMesh(v, t);
  HullShape hull;
  if (!buildHullShape(v.data(), 8, t.data(), 12, hull)) qFatal("the cube is not a hull");
  return hull;
}

bool near(const double* a, const Vec3& b, double tolerance = kFloat) {
  return std::abs(a[0] - b.x()) <= tolerance && std::abs(a[1] - b.y()) <= tolerance && std::abs(a[2] - b.z()) <= tolerance;
}

// The expected contact of a sphere at `centre` whose closest hull point is `closest` (outside): normal from the
// centre to it, dist its distance minus the radius, pos halfway between the surfaces.
void expectOutside(const HullShape& hull, const Vec3& centre, const Vec3& closest) {
  SphereHullContact c;
  QVERIFY(collideSphereHull(hull, centre.data(), kRadius, 0, c));
  const double distance = (closest - centre).norm();
  const Vec3 n = (closest - centre) / distance;
  QVERIFY(std::abs(c.dist - (distance - kRadius)) < kFloat);
  QVERIFY(near(c.normal, n, 1e-6));  // a direction: the float vertices' rounding over a few mm
  QVERIFY(near(c.pos, centre + 0.5 * (kRadius + distance) * n));
}

// A mesh model with a sphere of kRadius and one mesh geom (vertices, triangles), both in the world body; poses are
// set on mjData directly.
mjModel* sphereAndMesh(const std::vector<float>& v, const std::vector<int>& t) {
  std::ostringstream xml;
  xml.precision(9);
  xml << "<mujoco><compiler convexhull=\"false\"/><asset><mesh name=\"m\" vertex=\"";
  for (float x : v) xml << x << ' ';
  xml << "\" face=\"";
  for (int i : t) xml << i << ' ';
  xml << "\"/></asset><worldbody><geom name=\"s\" type=\"sphere\" size=\"" << kRadius
      << "\"/><geom name=\"m\" type=\"mesh\" mesh=\"m\"/></worldbody></mujoco>";
  const std::string text = xml.str();
  mjVFS vfs;
  mj_defaultVFS(&vfs);
  mj_makeEmptyFileVFS(&vfs, "m.xml", static_cast<int>(text.size()));
  std::copy(text.begin(), text.end(), static_cast<char*>(vfs.filedata[mj_findFileVFS(&vfs, "m.xml")]));
  char error[1000] = "";
  mjModel* m = mj_loadXML("m.xml", &vfs, error, sizeof error);
  mj_deleteVFS(&vfs);
  if (!m) qFatal("MuJoCo: %s", error);
  return m;
}

// An irregular convex polyhedron: the icosahedron, stretched along its axes and given as triangles.
void icosahedron(std::vector<float>& v, std::vector<int>& t) {
  const double p = (1 + std::sqrt(5.0)) / 2;
  const double raw[12][3] = {{-1, p, 0}, {1, p, 0}, {-1, -p, 0}, {1, -p, 0}, {0, -1, p}, {0, 1, p},
                             {0, -1, -p}, {0, 1, -p}, {p, 0, -1}, {p, 0, 1}, {-p, 0, -1}, {-p, 0, 1}};
  const double scale[3] = {0.012, 0.008, 0.015};
  v.clear();
  for (const auto& r : raw)
    for (int k = 0; k < 3; ++k) v.push_back(static_cast<float>(r[k] * scale[k]));
  t = {0, 11, 5, 0, 5, 1, 0, 1, 7, 0, 7, 10, 0, 10, 11, 1, 5, 9, 5, 11, 4, 11, 10, 2, 10, 7, 6, 7, 1, 8,
       3, 9, 4, 3, 4, 2, 3, 2, 6, 3, 6, 8, 3, 8, 9, 4, 9, 5, 2, 4, 11, 6, 2, 10, 8, 6, 7, 9, 8, 1};
}

}  // namespace

class TestSphereHull : public QObject {
  Q_OBJECT

 private slots:
  // Sphere of radius r over the middle of a face, past an edge, past a vertex: the closest hull point by hand.
  void cubeFaceEdgeVertex() {
    const HullShape hull = cube();
    QCOMPARE(hull.faces(), 12);
    // Face: 1 mm into the top face (z = h), off its centre.
    expectOutside(hull, Vec3(0.003, -0.004, kHalf + 0.004), Vec3(0.003, -0.004, kHalf));
    // Edge x = z = h: the centre beyond both faces, within the edge's length.
    expectOutside(hull, Vec3(kHalf + 0.003, 0.002, kHalf + 0.002), Vec3(kHalf, 0.002, kHalf));
    // Vertex (h, h, −h).
    expectOutside(hull, Vec3(kHalf + 0.002, kHalf + 0.001, -kHalf - 0.003), Vec3(kHalf, kHalf, -kHalf));
    // Apart: the centre r + 1 mm over the face, over the edge and over the vertex.
    SphereHullContact c;
    QVERIFY(!collideSphereHull(hull, Vec3(0, 0, kHalf + kRadius + 0.001).data(), kRadius, 0, c));
    const double e = (kRadius + 0.001) / std::sqrt(2.0), w = (kRadius + 0.001) / std::sqrt(3.0);
    QVERIFY(!collideSphereHull(hull, Vec3(kHalf + e, 0, kHalf + e).data(), kRadius, 0, c));
    QVERIFY(!collideSphereHull(hull, Vec3(kHalf + w, kHalf + w, kHalf + w).data(), kRadius, 0, c));
    // Near the vertex but within r along each face plane: beyond each plane by less than r, yet the vertex is
    // farther than r (the face-plane bound alone would call it a contact).
    const double s = 0.8 * kRadius;
    QVERIFY(s * std::sqrt(3.0) > kRadius);
    QVERIFY(!collideSphereHull(hull, Vec3(kHalf + s, kHalf + s, kHalf + s).data(), kRadius, 0, c));
  }

  // The centre inside the cube: the nearest face's plane gives the depth, the normal is that face's inward one
  // (the hull is pushed away from the sphere), pos halfway between the surfaces.
  void cubeInside() {
    const HullShape hull = cube();
    SphereHullContact c;
    const Vec3 centre(0.001, 0.002, kHalf - 0.003);  // 3 mm below the top face, ≥ 17 mm from the others
    QVERIFY(collideSphereHull(hull, centre.data(), kRadius, 0, c));
    QVERIFY(std::abs(c.dist - (-0.003 - kRadius)) < kFloat);
    QVERIFY(near(c.normal, Vec3(0, 0, -1)));
    QVERIFY(near(c.pos, centre + 0.5 * (kRadius - 0.003) * Vec3(0, 0, -1)));
    // On the face itself: depth r, the same normal.
    const Vec3 onFace(-0.005, 0.0, -kHalf);
    QVERIFY(collideSphereHull(hull, onFace.data(), kRadius, 0, c));
    QVERIFY(std::abs(c.dist + kRadius) < kFloat);
    QVERIFY(near(c.normal, Vec3(0, 0, 1)));
  }

  // MuJoCo's margin: a contact while the surfaces are within it, its dist the (positive) gap.
  void margin() {
    const HullShape hull = cube();
    const double margin = 0.002;
    SphereHullContact c;
    const Vec3 close(0, 0, kHalf + kRadius + 0.3 * margin);
    QVERIFY(!collideSphereHull(hull, close.data(), kRadius, 0, c));
    QVERIFY(collideSphereHull(hull, close.data(), kRadius, margin, c));
    QVERIFY(std::abs(c.dist - 0.3 * margin) < kFloat);
    QVERIFY(near(c.normal, Vec3(0, 0, -1)));
    QVERIFY(!collideSphereHull(hull, Vec3(0, 0, kHalf + kRadius + 1.5 * margin).data(), kRadius, margin, c));
    // Past an edge, the gap is the distance to the edge.
    const double gap = 0.5 * margin, e = (kRadius + gap) / std::sqrt(2.0);
    QVERIFY(collideSphereHull(hull, Vec3(kHalf + e, 0.001, kHalf + e).data(), kRadius, margin, c));
    QVERIFY(std::abs(c.dist - gap) < kFloat);
  }

  // Meshes that are not a convex solid keep MPR: a flat square (both sides), an open cube, a dented cube, an edge
  // index out of range.
  void refusesWhatIsNotAHull() {
    HullShape hull;
    const std::vector<float> square = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
    const std::vector<int> twoSided = {0, 1, 2, 0, 2, 3, 0, 2, 1, 0, 3, 2};
    QVERIFY(!buildHullShape(square.data(), 4, twoSided.data(), 4, hull));
    std::vector<float> v;
    std::vector<int> t;
    cubeMesh(v, t);
    QVERIFY(buildHullShape(v.data(), 8, t.data(), 12, hull));
    QVERIFY(!buildHullShape(v.data(), 8, t.data(), 11, hull));  // one triangle missing: open
    std::vector<float> dented = v;
    for (int k = 0; k < 3; ++k) dented[static_cast<std::size_t>(k)] = static_cast<float>(-0.3 * kHalf);  // corner 0 pushed in
    QVERIFY(!buildHullShape(dented.data(), 8, t.data(), 12, hull));
    std::vector<int> bad = t;
    bad[0] = 8;
    QVERIFY(!buildHullShape(v.data(), 8, bad.data(), 12, hull));
    QCOMPARE(hull.faces(), 0);
  }

  // Random poses of an irregular polyhedron and a sphere about it, through the MuJoCo glue (world frames):
  // - every answer is certified exact: the hull point it names (centre + (dist + r)·normal) is on the hull, and
  //   outside, the plane through it across the normal has every vertex behind it (so it is the closest point of the
  //   convex hull); inside, no face plane is nearer than the depth;
  // - against MuJoCo's own collision function (MPR, mujocoCollisionFunction): where MPR finds a contact so does
  //   the exact function, and MPR's depth is never less than the exact one beyond its tolerance (the exact depth
  //   is the least); where the exact function finds one MPR missed, it is a graze. How far MPR's depth and normal
  //   are from the exact ones is printed (MPR's tolerance bounds its portal's convergence, not the normal).
  void agreesWithMuJoCosMpr() {
    std::vector<float> v;
    std::vector<int> t;
    icosahedron(v, t);
    mjModel* m = sphereAndMesh(v, t);
    mjData* d = mj_makeData(m);
    mj_forward(m, d);
    const int sphere = mj_name2id(m, mjOBJ_GEOM, "s"), mesh = mj_name2id(m, mjOBJ_GEOM, "m");
    QCOMPARE(m->geom_type[sphere], int{mjGEOM_SPHERE});
    QCOMPARE(m->geom_type[mesh], int{mjGEOM_MESH});
    SphereHullCollider collider(m);
    QCOMPARE(collider.usableMeshes(), 1);
    // The compiled mesh (MuJoCo moved it to its own frame): the vertices the functions see.
    v.assign(m->mesh_vert, m->mesh_vert + 3 * m->mesh_vertnum[0]);
    HullShape hull;
    QVERIFY(buildHullShape(m->mesh_vert, m->mesh_vertnum[0], m->mesh_face, m->mesh_facenum[0], hull));
    const mjfCollision mpr = mujocoCollisionFunction(mjGEOM_SPHERE, mjGEOM_MESH);
    QVERIFY(mpr != nullptr);
    const double tolerance = m->opt.mpr_tolerance;
    std::mt19937 random(38);
    std::uniform_real_distribution<double> unit(-1, 1);
    int both = 0, neither = 0, shallow = 0;
    double worstDepth = 0, worstAngle = 0, worstPos = 0, worstDeepDepth = 0, worstDeepAngle = 0;
    const double kShallow = 0.001;  // m: a grasp's contacts are shallower than this
    for (int i = 0; i < 4000; ++i) {
      // The mesh at a random pose, the sphere around it.
      mjtNum quat[4] = {unit(random), unit(random), unit(random), unit(random)};
      mju_normalize4(quat);
      mju_quat2Mat(d->geom_xmat + 9 * mesh, quat);
      for (int k = 0; k < 3; ++k) d->geom_xpos[3 * mesh + k] = 0.01 * unit(random);
      for (int k = 0; k < 3; ++k) d->geom_xpos[3 * sphere + k] = d->geom_xpos[3 * mesh + k] + 0.022 * unit(random);
      mjContact exact[mjMAXCONPAIR], reference[mjMAXCONPAIR];
      bool handled = false;
      const int ne = collideSphereMeshRegistered(m, d, exact, sphere, mesh, 0, handled);
      QVERIFY(handled);
      const int nr = mpr(m, d, reference, sphere, mesh, 0);
      QVERIFY(ne <= 1 && nr <= 1);
      if (ne == 1) {
        // The certificate, in the mesh's frame.
        const mjtNum* R = d->geom_xmat + 9 * mesh;
        mjtNum rel[3], c[3], n[3];
        mju_sub3(rel, d->geom_xpos + 3 * sphere, d->geom_xpos + 3 * mesh);
        mju_rotVecMatT(c, rel, R);
        mju_rotVecMatT(n, exact[0].frame, R);
        const double distance = exact[0].dist + kRadius;  // signed, centre to hull along the normal
        double q[3];
        for (int k = 0; k < 3; ++k) q[k] = c[k] + distance * n[k];
        double onHull = -INFINITY, behind = INFINITY;
        for (int f = 0; f < hull.faces(); ++f)
          onHull = std::max(onHull, mju_dot3(hull.planes.data() + 4 * f, q) - hull.planes[static_cast<std::size_t>(4 * f + 3)]);
        QVERIFY2(std::abs(onHull) < 1e-12, qPrintable(QStringLiteral("pose %1: %2 m off the hull").arg(i).arg(onHull)));
        if (distance > 0) {
          for (std::size_t k = 0; k < v.size(); k += 3) {
            const double vk[3] = {v[k], v[k + 1], v[k + 2]};
            double dq[3];
            for (int j = 0; j < 3; ++j) dq[j] = vk[j] - q[j];
            behind = std::min(behind, mju_dot3(n, dq));
          }
          QVERIFY2(behind > -1e-12, qPrintable(QStringLiteral("pose %1: a vertex %2 m nearer").arg(i).arg(-behind)));
        } else {
          for (int f = 0; f < hull.faces(); ++f)
            QVERIFY(hull.planes[static_cast<std::size_t>(4 * f + 3)] - mju_dot3(hull.planes.data() + 4 * f, c) >=
                    -distance - 1e-12);
        }
      }
      if (nr == 1) {
        QCOMPARE(ne, 1);
        ++both;
        QVERIFY2(reference[0].dist <= exact[0].dist + tolerance,
                 qPrintable(QStringLiteral("pose %1: MPR depth %2 below the exact %3").arg(i)
                                .arg(-reference[0].dist).arg(-exact[0].dist)));
        const double angle = std::acos(std::min(1.0, mju_dot3(exact[0].frame, reference[0].frame)));
        if (exact[0].dist > -kShallow) {
          ++shallow;
          worstDepth = std::max(worstDepth, exact[0].dist - reference[0].dist);
          worstAngle = std::max(worstAngle, angle);
          worstPos = std::max(worstPos, mju_dist3(exact[0].pos, reference[0].pos));
        } else {
          worstDeepDepth = std::max(worstDeepDepth, exact[0].dist - reference[0].dist);
          worstDeepAngle = std::max(worstDeepAngle, angle);
        }
      } else if (ne == 0) {
        ++neither;
      } else {
        // The exact function found a contact MPR missed: only at a graze, within MPR's tolerance of touching.
        QVERIFY2(exact[0].dist > -10 * tolerance, qPrintable(QStringLiteral("pose %1: MPR missed depth %2")
                                                                  .arg(i).arg(-exact[0].dist)));
      }
    }
    qInfo("MPR against exact over %d contacts (%d poses apart); %d shallower than 1 mm: depth differs by at most "
          "%.3g m, normal by %.3g rad, pos by %.3g m; deeper: depth by %.3g m, normal by %.3g rad",
          both, neither, shallow, worstDepth, worstAngle, worstPos, worstDeepDepth, worstDeepAngle);
    QVERIFY(both > 500 && neither > 500 && shallow > 100);  // the poses cover every case
    mj_deleteData(d);
    mj_deleteModel(m);
  }

  // In a trial model (the ThreeFinger closed on the mug, default.xml) the collider is registered with the mug's
  // pieces; the collision table then answers with the exact function. Off, no collider: MuJoCo's MPR.
  void trialModelUsesIt() {
    World w = sgtest::closedHandWorld(sg::test::inSourceTree("worlds/default.xml"), false);
    TrialSettings on, off;
    off.exactSphereMesh = false;
    SimModel a(buildMjcf(w, w.state, 0, 0, on)), b(buildMjcf(w, w.state, 0, 0, off));
    QVERIFY(b.sphereHulls() == nullptr);
    QVERIFY(a.sphereHulls() != nullptr);
    QCOMPARE(a.sphereHulls()->meshes(), a.model()->nmesh);
    QVERIFY(a.sphereHulls()->usableMeshes() > a.model()->nmesh / 2);
    // Settling, the fingertip spheres touch the mug's pieces: every sphere–mesh contact MuJoCo made is the closed
    // form's answer for its geoms at the step's poses, to the bit.
    int sphereMesh = 0;
    for (int k = 0; k < 150; ++k) {
      a.step();
      const mjModel* m = a.model();
      const mjData* d = a.data();
      for (int c = 0; c < d->ncon; ++c) {
        const mjContact& con = d->contact[c];
        if (m->geom_type[con.geom1] != mjGEOM_SPHERE || m->geom_type[con.geom2] != mjGEOM_MESH) continue;
        mjContact again;
        bool handled = false;
        QCOMPARE(collideSphereMeshRegistered(m, d, &again, con.geom1, con.geom2, con.includemargin, handled), 1);
        QVERIFY(handled);
        QCOMPARE(again.dist, con.dist);
        QVERIFY(std::equal(again.pos, again.pos + 3, con.pos));
        // MuJoCo completes the contact frame after the collision function (normalising the normal again).
        QVERIFY(mju_dist3(again.frame, con.frame) < 1e-15);
        ++sphereMesh;
      }
    }
    QVERIFY(sphereMesh > 0);
  }
};

QTEST_APPLESS_MAIN(TestSphereHull)
#include "tst_sphere_hull.moc"
