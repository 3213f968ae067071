// The save dialog of every export (docs/export.md): CSV or an Excel
// workbook, the file's suffix following the format chosen.
#pragma once

#include <QString>

class QWidget;

namespace md::views {

// The path chosen for `suggested` ("balances.csv"); empty when canceled.
QString chooseExportFile(QWidget *parent, const QString &title, const QString &suggested);

} // namespace md::views
