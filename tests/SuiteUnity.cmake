# Unity builds of the test suites (tests/BUILD_TIME.md §Unity builds of the suites), included by tests/CMakeLists.txt.
# sg_add_qtest records each suite (an OBJECT library) on its folder's executable; at the end of the folder,
# _sg_link_suites links them into it: with SOFTGRASP_TEST_UNITY, up to SOFTGRASP_TEST_UNITY_BATCH_SIZE suites at a
# time share one generated translation unit (one OBJECT library per batch, sg_tests_<folder>_unity_<n>) that
# includes each suite's main-renaming header, the suite's source and #undef of the macros the suite defines (with
# SOFTGRASP_TEST_UNITY_RENAME a name two suites of a batch share is renamed by a macro around each). CMake's own
# UNITY_BUILD cannot do this: the per-source forced include that renames each suite's main keeps every suite alone.
# A batched suite's own target stays (EXCLUDE_FROM_ALL): `cmake --build build --target tst_x` still compiles it
# alone, which shows an #include it misses.

# Off with clang: the hardening build (scripts/hardening-configure.sh) compiles every suite alone, so a missing
# #include there is not hidden by the suite before it in a batch.
option(SOFTGRASP_TEST_UNITY "Compile the test suites of a folder in batches, one translation unit each" ${sg_gcc_default})
set(SOFTGRASP_TEST_UNITY_BATCH_SIZE 16 CACHE STRING "Most suites per translation unit (SOFTGRASP_TEST_UNITY)")
# Most of a suite's compile time is template instantiation that every translation unit repeats, so fewer, larger
# batches pay (tests/BUILD_TIME.md §Unity builds of the suites, and the measured section it names): with renames a
# name two suites of a batch share is renamed instead of keeping the suites apart, and a folder's suites of one
# header kind are split into batches of even size. Without renames the batch size was 6.
option(SOFTGRASP_TEST_UNITY_RENAME "Rename the file-scope names suites of a batch share (SOFTGRASP_TEST_UNITY)" ON)

# Suites compiled alone, each with the reason. Besides these, _sg_link_suites keeps alone by itself a suite with its
# own compile definitions or options (tst_models, tst_pg_client), with AUTOMOC (Q_OBJECT outside its own .moc), or
# alone in its folder's precompiled-header kind. Two suites that declare one file-scope name do not share a batch
# (with SOFTGRASP_TEST_UNITY_RENAME they may, the name renamed: _sg_add_suite_batch); a collision the names read
# here miss fails with "redefinition of", "shadows a global declaration" or "is ambiguous" naming both: add the
# suite here, or give the helper a more specific name.
# With SOFTGRASP_TEST_UNITY_RENAME a name one suite declares and another uses is renamed in the declaring suite, which
# also keeps a local or a call of the other suite from meeting it (tst_hertz's local `K` beside tst_contact's `K`,
# tst_fingertip's relErr calls beside tst_curvature's relErr, tst_realfiles' writeFile beside a support header's).
# Without renames, names a suite only uses are not read (_sg_suite_names), and the suites below stay alone:
# - tst_hertz: its local `K` (an elliptic integral) would shadow tst_contact's file-scope `K` (-Wshadow);
# - tst_fingertip: its calls relErr(double, double) would be ambiguous with tst_curvature's relErr;
# - tst_realfiles: its writeFile(dir, path, text) would be ambiguous with the one of a support header that the
#   io suites before it include;
# - tst_cli_vocabulary, tst_cli_interrupt: their cli(args) would be ambiguous with namespace sg::cli, which the
#   ui/cli headers of tst_cli_model_param declare (the suites say `using namespace sg`);
# - tst_hydro_model, tst_hydro_overlap: kept as they were (their `kR = 8, kE = 1e6` lines met tst_hydro_surfaces' kE
#   when only a line's first name was read);
# - tst_coarse_curvature: its calls relErr(a, b) would be ambiguous with tst_curvature's relErr (it was kept apart
#   before by names misread from its comments).
# Alone in any case:
# - tst_model_parameters: in a batch gcc 12 reported ContactModelSettings' FrictionRing as -Wmaybe-uninitialized
#   (a false positive); the suite alone now reports the same warning too (29 Nov 2026), so it could join its batch
#   (not tried yet).
if(SOFTGRASP_TEST_UNITY_RENAME)
  set(SG_TEST_UNITY_SKIP tst_model_parameters)
else()
  set(SG_TEST_UNITY_SKIP tst_hertz tst_fingertip tst_realfiles tst_model_parameters tst_hydro_model tst_hydro_overlap
      tst_cli_vocabulary tst_cli_interrupt tst_coarse_curvature)
endif()

# ${out} = the names of the macros `source` #defines, to #undef after it in a batch (a suite's own CHECK_NEAR must
# not meet the next suite's).
function(_sg_suite_macros out source)
  file(STRINGS ${source} lines REGEX "^[ \t]*#[ \t]*define[ \t]+[A-Za-z_][A-Za-z0-9_]*")
  set(names "")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^[ \t]*#[ \t]*define[ \t]+([A-Za-z_][A-Za-z0-9_]*).*$" "\\1" name "${line}")
    list(APPEND names ${name})
  endforeach()
  list(REMOVE_DUPLICATES names)
  set(${out} ${names} PARENT_SCOPE)
endfunction()

# ${out} = TRUE when `suite` may share a translation unit: its flags are the folder's (nothing added on the suite's
# target after sg_add_qtest but include directories, libraries and dependencies), moc by hand, not skipped.
function(_sg_suite_batchable out suite exe)
  set(${out} FALSE PARENT_SCOPE)
  if(suite IN_LIST SG_TEST_UNITY_SKIP)
    return()
  endif()
  get_target_property(automoc ${suite} AUTOMOC)
  get_target_property(definitions ${suite} COMPILE_DEFINITIONS)
  get_target_property(options ${suite} COMPILE_OPTIONS)
  get_target_property(folder_options ${exe} COMPILE_OPTIONS)
  get_target_property(features ${suite} COMPILE_FEATURES)
  foreach(var definitions options folder_options)
    if(NOT ${var})
      set(${var} "")
    endif()
  endforeach()
  if(automoc OR NOT definitions STREQUAL "SG_PROJECT_VERSION=\"${PROJECT_VERSION}\"" OR
     NOT options STREQUAL folder_options OR features)
    return()
  endif()
  set(${out} TRUE PARENT_SCOPE)
endfunction()

# ${out} = the names `suite`'s own sources declare at file scope (their anonymous namespace included): the names in
# column 0 of a declaration or definition (`bool showWorld(`, `const sg::BodyHandle kMug{`, `constexpr int kWidth =`,
# `struct Probe`, `using Grid =`) and Q_DECLARE_METATYPE's types. Two suites that declare one name do not share a
# batch (two helpers of one name and signature would be redefinitions there), unless SOFTGRASP_TEST_UNITY_RENAME
# renames it (_sg_suites_clash). A declaration that does not start in column 0 is not seen: if two of those
# collide, the batch fails with "redefinition of" naming both (SG_TEST_UNITY_SKIP).
function(_sg_suite_names out suite)
  get_target_property(sources ${suite} SOURCES)
  set(names "")
  foreach(source IN LISTS sources)
    get_filename_component(path ${source} ABSOLUTE)
    get_filename_component(dir ${path} DIRECTORY)
    # Only the sources a batch includes (_sg_add_suite_batch): a support .cpp is compiled on its own.
    if(NOT path MATCHES "\\.(cpp|cc|cxx)$" OR NOT EXISTS ${path} OR NOT dir STREQUAL CMAKE_CURRENT_SOURCE_DIR)
      continue()
    endif()
    file(STRINGS ${path} lines ENCODING UTF-8 REGEX "^[A-Za-z_]")
    foreach(line IN LISTS lines)
      if(line MATCHES "^using[ \t]+([A-Za-z_][A-Za-z0-9_]*)[ \t]*=")
        list(APPEND names ${CMAKE_MATCH_1})
      elseif(line MATCHES "^(namespace|using|template|extern|return|typedef|friend)([^A-Za-z0-9_]|$)")
        continue()
      elseif(line MATCHES "^(class|struct|union|enum class|enum struct|enum)[ \t]+([A-Za-z_][A-Za-z0-9_]*)")
        list(APPEND names ${CMAKE_MATCH_2})
      elseif(line MATCHES "^Q_DECLARE_METATYPE\\(([^)]*)\\)")
        string(REPLACE " " "" type "${CMAKE_MATCH_1}")
        list(APPEND names "metatype:${type}")
      elseif(SOFTGRASP_TEST_UNITY_RENAME AND NOT line MATCHES "^[^(={[;]*[(={[;]")
        # Prose (a comment's line in column 0: "the value y"): with renames its words would be renamed too.
        continue()
      elseif(line MATCHES "^([^(={[;]*)")
        # The part before the first ( = { [ or ;: a type, then the name (not a qualified TestX::method).
        if(CMAKE_MATCH_1 MATCHES "[ \t*&]([A-Za-z_][A-Za-z0-9_]*)[ \t]*$")
          if(NOT CMAKE_MATCH_1 STREQUAL "operator")
            list(APPEND names ${CMAKE_MATCH_1})
          endif()
        endif()
        # The further names of a constant's line (`constexpr int kWidth = 800, kHeight = 600`).
        if(line MATCHES "^((static|inline)[ \t]+)*(constexpr|const)[ \t]")
          string(REGEX MATCHALL ",[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*[={]" more "${line}")
          foreach(declarator IN LISTS more)
            string(REGEX REPLACE "^,[ \t]*([A-Za-z_][A-Za-z0-9_]*).*$" "\\1" declarator "${declarator}")
            list(APPEND names ${declarator})
          endforeach()
        endif()
      endif()
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES names)
  set(${out} ${names} PARENT_SCOPE)
endfunction()

# ${out} = the text of `suite`'s own sources (those _sg_suite_names reads), for _sg_suite_uses and
# _sg_suite_name_fixed.
function(_sg_suite_text out suite)
  get_target_property(sources ${suite} SOURCES)
  set(text "")
  foreach(source IN LISTS sources)
    get_filename_component(path ${source} ABSOLUTE)
    get_filename_component(dir ${path} DIRECTORY)
    if(path MATCHES "\\.(cpp|cc|cxx)$" AND EXISTS ${path} AND dir STREQUAL CMAKE_CURRENT_SOURCE_DIR)
      file(READ ${path} content)
      string(APPEND text "${content}")
    endif()
  endforeach()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# ${out} = TRUE when the word `name` occurs in `text` other than as a member or qualified name (declared, called or
# only in a comment: renaming more than needed costs nothing).
function(_sg_suite_uses out name text)
  set(${out} FALSE PARENT_SCOPE)
  string(FIND "${text}" "${name}" at)
  if(at GREATER -1 AND NOT name MATCHES "^metatype:" AND "${text}" MATCHES "(^|[^A-Za-z0-9_.>:])${name}([^A-Za-z0-9_]|$)")
    set(${out} TRUE PARENT_SCOPE)
  endif()
endfunction()

# ${out} = TRUE when `name` (from _sg_suite_names) cannot be renamed in the suite whose source is `text`
# (_sg_add_suite_batch): main (renamed already), Q_DECLARE_METATYPE's types, hooks other code finds by name
# (QTest::toString, qHash, swap, begin/end), C++'s alternative operator tokens (`and`, read from a comment's line,
# cannot be a macro), and a name the suite also uses as a member or qualified name (`body.primitive`,
# `TestX::run`), which the macro would rename too.
function(_sg_suite_name_fixed out name text)
  set(${out} FALSE PARENT_SCOPE)
  if(name MATCHES "^(metatype:.*|main|toString|qHash|swap|begin|end|and|or|not|xor|bitand|bitor|compl|and_eq|or_eq|not_eq|xor_eq)$")
    set(${out} TRUE PARENT_SCOPE)
    return()
  endif()
  string(FIND "${text}" "${name}" at)
  if(at GREATER -1 AND "${text}" MATCHES "(\\.|->|::)[ \t]*${name}([^A-Za-z0-9_]|$)")
    set(${out} TRUE PARENT_SCOPE)
  endif()
endfunction()

# ${out} = TRUE when suites `a` and `b` cannot share a batch: one declares a name the other declares or uses, and
# cannot rename it (_sg_suite_name_fixed). Reads names_<suite> and text_<suite> of the caller (_sg_link_suites).
function(_sg_suites_clash out a b)
  set(${out} FALSE PARENT_SCOPE)
  foreach(pair "${a};${b}" "${b};${a}")
    list(GET pair 0 x)
    list(GET pair 1 y)
    foreach(name IN LISTS names_${x})
      set(meets FALSE)
      if(name IN_LIST names_${y})
        set(meets TRUE)
      else()
        _sg_suite_uses(meets ${name} "${text_${y}}")
      endif()
      if(meets)
        _sg_suite_name_fixed(fixed ${name} "${text_${x}}")
        if(fixed)
          set(${out} TRUE PARENT_SCOPE)
          return()
        endif()
      endif()
    endforeach()
  endforeach()
endfunction()

# ${out} = the #include lines of `source`, its .moc left out, for a batch to include ahead of the suite (so a header
# the suite is the first to include is read before the suite's names are renamed); a quoted path found beside the
# source is made relative to `from`.
function(_sg_suite_includes out source from)
  get_filename_component(dir ${source} DIRECTORY)
  file(STRINGS ${source} lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
  set(text "")
  foreach(line IN LISTS lines)
    if(line MATCHES "\\.moc\"")
      continue()
    endif()
    set(header "")
    if(line MATCHES "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\"")
      set(header ${dir}/${CMAKE_MATCH_1})
    endif()
    if(header AND EXISTS ${header})
      file(RELATIVE_PATH relative ${from} ${header})
      string(APPEND text "#include \"${relative}\"\n")
    else()
      string(APPEND text "${line}\n")
    endif()
  endforeach()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# One batch: an OBJECT library compiling `unity` (the suites' own sources of the folder, included) plus the suites'
# other sources (support .cpp, their .moc outputs and headers), with the union of the suites' include directories,
# libraries and dependencies.
function(_sg_add_suite_batch batch exe pch)
  set(suites ${ARGN})
  set(unity ${CMAKE_CURRENT_BINARY_DIR}/sg_unity/${batch}.cpp)
  list(JOIN suites ", " names)
  set(text "// Generated by tests/SuiteUnity.cmake: the suites ${names} in one translation unit.\n")
  set(other_sources "")
  # The file-scope names of a suite that another suite of the batch declares or uses (kMug, near, runCli, relErr
  # beside ModelRun.h's, ...): renamed in that suite by a macro around its source (#define kMug sg_unity_tst_x_kMug
  # ... #undef kMug), so one batch can hold suites whose anonymous namespaces would otherwise redefine, shadow or
  # make ambiguous each other's names (_sg_link_suites keeps apart suites whose names cannot be renamed:
  # _sg_suites_clash). names_<suite> and text_<suite> come from the caller, _sg_link_suites.
  foreach(suite IN LISTS suites)
    set(renames "")
    foreach(name IN LISTS names_${suite})
      _sg_suite_name_fixed(fixed ${name} "${text_${suite}}")
      if(fixed OR NOT SOFTGRASP_TEST_UNITY_RENAME)
        continue()
      endif()
      foreach(other IN LISTS suites)
        if(other STREQUAL suite)
          continue()
        endif()
        set(meets FALSE)
        if(name IN_LIST names_${other})
          set(meets TRUE)
        else()
          _sg_suite_uses(meets ${name} "${text_${other}}")
        endif()
        if(meets)
          list(APPEND renames ${name})
          break()
        endif()
      endforeach()
    endforeach()
    get_target_property(sources ${suite} SOURCES)
    get_target_property(includes ${suite} INCLUDE_DIRECTORIES)
    get_target_property(libraries ${suite} LINK_LIBRARIES)
    get_target_property(dependencies ${suite} MANUALLY_ADDED_DEPENDENCIES)
    string(APPEND text "\n// ${suite}\n#include \"../sg_suite_main/${suite}.h\"\n")
    set(undefs main)
    foreach(source IN LISTS sources)
      get_filename_component(path ${source} ABSOLUTE)
      get_filename_component(dir ${path} DIRECTORY)
      if(path MATCHES "\\.(cpp|cc|cxx)$" AND dir STREQUAL CMAKE_CURRENT_SOURCE_DIR)
        # Relative: no absolute path in the file, so a compiler cache serves it in another checkout.
        file(RELATIVE_PATH relative ${CMAKE_CURRENT_BINARY_DIR}/sg_unity ${path})
        if(renames)
          _sg_suite_includes(includes_text ${path} ${CMAKE_CURRENT_BINARY_DIR}/sg_unity)
          string(APPEND text "${includes_text}")
          foreach(name IN LISTS renames)
            string(APPEND text "#define ${name} sg_unity_${suite}_${name}\n")
          endforeach()
        endif()
        string(APPEND text "#include \"${relative}\"\n")
        _sg_suite_macros(defined ${path})
        list(APPEND undefs ${defined} ${renames})
      else()
        list(APPEND other_sources ${source})
      endif()
    endforeach()
    list(REMOVE_DUPLICATES undefs)
    foreach(name IN LISTS undefs)
      string(APPEND text "#undef ${name}\n")
    endforeach()
    target_include_directories(${batch} PRIVATE ${includes})
    target_link_libraries(${batch} PRIVATE ${libraries})
    if(dependencies)
      add_dependencies(${batch} ${dependencies})
    endif()
    set_target_properties(${suite} PROPERTIES EXCLUDE_FROM_ALL ON)
  endforeach()
  file(CONFIGURE OUTPUT ${unity} CONTENT "${text}")
  target_sources(${batch} PRIVATE ${unity} ${other_sources})
  target_compile_definitions(${batch} PRIVATE SG_PROJECT_VERSION="${PROJECT_VERSION}")
  # gcc's -Wsubobject-linkage is about headers (src/CMakeLists.txt, sg_unity_build): in a batch every suite is an
  # included file, so it would report each suite class's member of an anonymous-namespace type.
  set(options -Wno-subobject-linkage -Wno-error=stringop-overflow)
  if(pch)
    set(pch_header ${PROJECT_BINARY_DIR}/tests/CMakeFiles/${pch}.dir/cmake_pch.hxx)
    list(APPEND options -Winvalid-pch -Wno-error=invalid-pch -include ${pch_header})
    set_property(SOURCE ${unity} PROPERTY OBJECT_DEPENDS ${pch_header}.gch)
  endif()
  set_property(SOURCE ${unity} PROPERTY COMPILE_OPTIONS ${options})
  target_link_libraries(${exe} PRIVATE ${batch})
endfunction()

# Links the folder's suites into its executable (deferred to the end of the folder's CMakeLists.txt by
# sg_add_qtest, so the target_* calls after sg_add_qtest are seen): batches of suites that share a
# precompiled-header kind, the others alone. The ctest entries do not change.
function(_sg_link_suites exe)
  get_target_property(suites ${exe} SG_SUITES)
  set(alone "")
  set(groups "")
  if(SOFTGRASP_TEST_UNITY)
    foreach(suite IN LISTS suites)
      _sg_suite_batchable(batchable ${suite} ${exe})
      if(batchable)
        get_target_property(kind ${suite} SG_SUITE_KIND)
        list(APPEND group_${kind} ${suite})
        list(APPEND groups ${kind})
      else()
        list(APPEND alone ${suite})
      endif()
    endforeach()
    list(REMOVE_DUPLICATES groups)
  else()
    set(alone ${suites})
  endif()
  set(index 0)
  foreach(kind IN LISTS groups)
    # kind: gui or core, the suite's precompiled header (sg_add_qtest). Each suite goes into the first batch of
    # its kind with room whose suites declare none of its file-scope names (_sg_suite_names; with
    # SOFTGRASP_TEST_UNITY_RENAME none it cannot rename: _sg_suites_clash), else a new one.
    set(batches "")
    # With renames: as few batches as the size allows, of even sizes (17 suites in 9 + 8, not 16 + one alone).
    set(capacity ${SOFTGRASP_TEST_UNITY_BATCH_SIZE})
    if(SOFTGRASP_TEST_UNITY_RENAME)
      list(LENGTH group_${kind} count)
      math(EXPR capacity "(${count} + ${SOFTGRASP_TEST_UNITY_BATCH_SIZE} - 1) / ${SOFTGRASP_TEST_UNITY_BATCH_SIZE}")
      math(EXPR capacity "(${count} + ${capacity} - 1) / ${capacity}")
    endif()
    foreach(suite IN LISTS group_${kind})
      _sg_suite_names(names_${suite} ${suite})
      _sg_suite_text(text_${suite} ${suite})
      set(chosen "")
      foreach(b IN LISTS batches)
        list(LENGTH members_${b} size)
        if(size GREATER_EQUAL capacity)
          continue()
        endif()
        set(clash FALSE)
        foreach(member IN LISTS members_${b})
          if(SOFTGRASP_TEST_UNITY_RENAME)
            _sg_suites_clash(clash ${suite} ${member})
          elseif(names_${suite})
            # Without renames any name both declare keeps them apart.
            foreach(name IN LISTS names_${suite})
              if(name IN_LIST names_${member})
                set(clash TRUE)
                break()
              endif()
            endforeach()
          endif()
          if(clash)
            break()
          endif()
        endforeach()
        if(NOT clash)
          set(chosen ${b})
          break()
        endif()
      endforeach()
      if(NOT chosen)
        list(LENGTH batches chosen)
        set(chosen ${kind}${chosen})
        list(APPEND batches ${chosen})
        set(members_${chosen} "")
      endif()
      list(APPEND members_${chosen} ${suite})
    endforeach()
    foreach(b IN LISTS batches)
      list(LENGTH members_${b} size)
      if(size EQUAL 1)
        list(APPEND alone ${members_${b}})
        continue()
      endif()
      math(EXPR index "${index} + 1")
      set(batch ${exe}_unity_${index})
      add_library(${batch} OBJECT)
      set(pch "")
      if(SOFTGRASP_TEST_PCH)
        set(pch sg_test_pch_${kind})
      endif()
      _sg_add_suite_batch(${batch} ${exe} "${pch}" ${members_${b}})
    endforeach()
  endforeach()
  foreach(suite IN LISTS alone)
    target_link_libraries(${exe} PRIVATE ${suite})
  endforeach()
endfunction()
