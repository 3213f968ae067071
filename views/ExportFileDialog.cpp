#include "views/ExportFileDialog.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>

namespace md::views {

QString chooseExportFile(QWidget *parent, const QString &title, const QString &suggested)
{
    const QString csv =
        QCoreApplication::translate("md::views::ExportFileDialog", "CSV files (*.csv)");
    const QString workbook =
        QCoreApplication::translate("md::views::ExportFileDialog", "Excel workbooks (*.xlsx)");
    QString chosen;
    const QString path = QFileDialog::getSaveFileName(
        parent, title, suggested, csv + QStringLiteral(";;") + workbook, &chosen);
    if (path.isEmpty())
        return {};
    const QString suffix = chosen == workbook ? QStringLiteral("xlsx") : QStringLiteral("csv");
    const QFileInfo file(path);
    if (file.suffix().compare(suffix, Qt::CaseInsensitive) == 0)
        return path;
    // "balances.csv" with the workbook format chosen becomes "balances.xlsx".
    const bool known =
        file.suffix() == QStringLiteral("csv") || file.suffix() == QStringLiteral("xlsx");
    return file.dir().filePath((known ? file.completeBaseName() : file.fileName()) +
                               QLatin1Char('.') + suffix);
}

} // namespace md::views
