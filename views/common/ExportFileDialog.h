// The save dialog of every export (docs/export.md): CSV, an Excel workbook
// or (for the balances) a PDF report, the file's suffix following the
// format chosen.
#pragma once

#include <QString>

class QWidget;

namespace md::views {

// The path chosen for `suggested` ("balances.csv"); empty when canceled.
// `withReport` offers the PDF report as a third format.
QString chooseExportFile(QWidget *parent, const QString &title, const QString &suggested,
                         bool withReport = false);

} // namespace md::views
