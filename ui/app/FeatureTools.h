#pragma once
// Feature installers called once by the MainWindow constructor, after its own menus and docks exist.
// Each feature owns its docks, actions and viewport overlays and reads MainWindow's public API
// (document(), analysis(), viewportPanel(), addDock(), graspMenu(), qualityMenu(), graspToolBar()).
namespace sg::app {

class MainWindow;

// Contacts dock, contact markers and friction cones, approach / auto-grasp / auto-open actions.
void installContactTools(MainWindow* window);
// Quality dock, soft patches and worst-case wrench overlays, GWS projection window, soft-contact
// inspector, analysis settings.
void installQualityTools(MainWindow* window);
// Grasp > Planner: the planner dock (PlannerDock.h).
void installPlannerTools(MainWindow* window);
// Grasp > Grasp Library: browse, preview, apply and export grasps of a grasp database (GraspLibraryDock.h).
void installGraspLibraryTools(MainWindow* window);
// Comparison dock (contact models side by side), its patch overlay, sensitivity plots.
void installComparisonTools(MainWindow* window);
// Grasp > Physics Trial: the MuJoCo trial of the current grasp, run in the background and played back
// (PhysicsTrialDock.h).
void installPhysicsTrialTools(MainWindow* window);

}  // namespace sg::app
