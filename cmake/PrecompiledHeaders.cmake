# Precompiled headers (docs/build-time.md): the Qt and standard headers most
# files include, parsed once per library, and once per group of tests,
# instead of in every file. CMake adds -Winvalid-pch, so with -Werror a
# header that could not be used stops the build instead of silently costing
# time.
set(md_pch_core
  <QtCore/QByteArray> <QtCore/QDateTime> <QtCore/QHash> <QtCore/QList> <QtCore/QMap>
  <QtCore/QObject> <QtCore/QSet> <QtCore/QString> <QtCore/QStringList> <QtCore/QVariant>
  <algorithm> <functional> <memory> <optional>)
set(md_pch_widgets
  <QtWidgets/QApplication> <QtWidgets/QComboBox> <QtWidgets/QDialog> <QtWidgets/QHBoxLayout>
  <QtWidgets/QHeaderView> <QtWidgets/QLabel> <QtWidgets/QLineEdit> <QtWidgets/QMessageBox>
  <QtWidgets/QPushButton> <QtWidgets/QTableView> <QtWidgets/QVBoxLayout> <QtWidgets/QWidget>)
set(md_pch_sql <QtSql/QSqlDatabase> <QtSql/QSqlError> <QtSql/QSqlQuery>)
set(md_pch_test <QtTest/QSignalSpy> <QtTest/QTest>)

# A library's own precompiled header: the core set, with SQL or WIDGETS
# those modules' headers too.
function(md_precompile target)
  cmake_parse_arguments(P "SQL;WIDGETS" "" "" ${ARGN})
  set(headers ${md_pch_core})
  if(P_SQL)
    list(APPEND headers ${md_pch_sql})
  endif()
  if(P_WIDGETS)
    list(APPEND headers ${md_pch_widgets})
  endif()
  target_precompile_headers(${target} PRIVATE ${headers})
endfunction()

# A test program's: joins GROUP within its folder. GCC uses a header only
# where every macro defined when it was compiled is defined alike, so each
# group's header is compiled by a target of its own that links what the
# group's first program links and defines nothing else (Qt Test's headers
# read the Qt modules' macros, so a group must link the same modules).
function(md_precompile_test target group)
  cmake_parse_arguments(P "WIDGETS" "" "" ${ARGN})
  get_filename_component(folder "${CMAKE_CURRENT_SOURCE_DIR}" NAME)
  string(MAKE_C_IDENTIFIER "${folder}_${group}" group)
  get_property(known GLOBAL PROPERTY md_pch_group_${group} SET)
  if(NOT known)
    add_library(md_pch_${group} OBJECT EXCLUDE_FROM_ALL ${PROJECT_SOURCE_DIR}/cmake/PchDonor.cpp)
    set_target_properties(md_pch_${group} PROPERTIES AUTOMOC OFF AUTOUIC OFF AUTORCC OFF)
    get_target_property(libraries ${target} LINK_LIBRARIES)
    target_link_libraries(md_pch_${group} PRIVATE ${libraries})
    set_property(GLOBAL APPEND PROPERTY md_pch_groups ${group})
    set_property(GLOBAL PROPERTY md_pch_widgets_${group} ${P_WIDGETS})
  endif()
  set_property(GLOBAL APPEND PROPERTY md_pch_group_${group} ${target})
endfunction()

# Called once every test is defined. A group of fewer than three files would
# spend more on the header than it saves, and gets none.
function(md_precompile_test_groups)
  get_property(groups GLOBAL PROPERTY md_pch_groups)
  foreach(group IN LISTS groups)
    get_property(targets GLOBAL PROPERTY md_pch_group_${group})
    set(files 0)
    foreach(target IN LISTS targets)
      get_target_property(sources ${target} SOURCES)
      list(FILTER sources INCLUDE REGEX "\\.cpp$")
      list(LENGTH sources count)
      math(EXPR files "${files} + ${count}")
    endforeach()
    if(files LESS 3)
      continue()
    endif()
    set(headers ${md_pch_core} ${md_pch_test})
    get_property(widgets GLOBAL PROPERTY md_pch_widgets_${group})
    if(widgets)
      list(APPEND headers ${md_pch_widgets})
    endif()
    target_precompile_headers(md_pch_${group} PRIVATE ${headers})
    foreach(target IN LISTS targets)
      target_precompile_headers(${target} REUSE_FROM md_pch_${group})
    endforeach()
  endforeach()
endfunction()
