#!/usr/bin/env bash
# Builds the engine and CLI test suites with AddressSanitizer + UndefinedBehaviorSanitizer in the clang
# hardening build directory (default build-hardening/, configured by scripts/hardening-configure.sh) and runs them. GUI suites are not built (they need GL and take
# most of the build time). Extra arguments go to ctest (e.g. -R tst_malformed).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${SOFTGRASP_SANITIZE_BUILD_DIR:-$root/build-hardening}"
suites=(tst_core tst_progress tst_geometry tst_mesh_readers tst_inventor_reader tst_body_xml tst_robot_xml
        tst_world_xml tst_link_properties_xml tst_atomic_file tst_joints tst_dh_parity tst_proximity tst_contact
        tst_collision_switches tst_motion tst_analysis tst_support_measures tst_quality tst_quality_support tst_soft
        tst_realfiles tst_models tst_cli tst_malformed tst_shapes tst_shape_pairs tst_primitive_io
        tst_primitive_contact tst_touching tst_hertz tst_fingertip tst_curvature tst_jet_solve tst_urdf tst_cli_urdf
        tst_state_threads tst_planner_cli tst_batch_cli tst_planner tst_hydro_fields tst_hydro_model
        tst_hydro_surfaces tst_hydro_world tst_hydroelastic_io tst_tetrahedralize tst_hydro_cli tst_patch tst_penalty
        tst_model_comparison tst_cli_compare tst_cli_sensing tst_penetrating tst_coarse_curvature tst_hydro_overlap
        tst_epsilon_sign tst_locale_files tst_planner_run tst_deferred_measures tst_interpenetration
        tst_roll_pitch_yaw tst_eigengrasp_range tst_hand_motion_presets tst_model_parameters tst_analysis_json
        tst_input_file tst_analysis_progress tst_cli_model_param tst_test_only_model tst_data_directory
        tst_json_format tst_warm_epsilon tst_contact_cache tst_contact_margin
        tst_sim tst_physics_prediction tst_physics_comparison tst_primitive_fit tst_decomposition_cache
        tst_sphere_hull)
# A suite that ctest runs as several entries (tst_malformed and tst_malformed_shard2of4, ...: tests/BUILD_TIME.md
# §ctest) is selected with all of them.
regex="^($(IFS='|'; echo "${suites[*]}"))(_shard[0-9]+of[0-9]+)?\$"
bash "$root/scripts/hardening-configure.sh" "$build"
# The suites live in one executable per tests/ folder (sg_tests_<folder>, tests/CMakeLists.txt): build the
# executables that hold the listed suites (configure writes "suite executable" lines to tests/suite-executables.txt).
mapfile -t targets < <(for s in "${suites[@]}"; do
  awk -v s="$s" '$1 == s { print $2; found = 1 } END { if (!found) print "MISSING:" s }' "$build/tests/suite-executables.txt"
done | sort -u)
if printf '%s\n' "${targets[@]}" | grep MISSING: >&2; then
  echo "sanitize.sh: the suites above are not in $build/tests/suite-executables.txt (renamed?)" >&2
  exit 1
fi
cmake --build "$build" -j"$(nproc)" --target "${targets[@]}"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export QTEST_FUNCTION_TIMEOUT=1200000  # ms; Qt Test's own 5-minute watchdog, raised like the suites' ctest TIMEOUT
export LSAN_OPTIONS="suppressions=$root/scripts/lsan.supp:print_suppressions=0"
cd "$build"
ctest --output-on-failure -j"$(nproc)" -R "$regex" "$@"
