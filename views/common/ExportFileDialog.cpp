#include "views/common/ExportFileDialog.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>

namespace md::views {

QString chooseExportFile(QWidget *parent, const QString &title, const QString &suggested,
                         bool withReport)
{
    // Each format's filter and suffix, the default first.
    QList<std::pair<QString, QString>> formats{
        {QCoreApplication::translate("md::views::ExportFileDialog", "CSV files (*.csv)"),
         QStringLiteral("csv")},
        {QCoreApplication::translate("md::views::ExportFileDialog", "Excel workbooks (*.xlsx)"),
         QStringLiteral("xlsx")}};
    if (withReport)
        formats.append(
            {QCoreApplication::translate("md::views::ExportFileDialog", "PDF reports (*.pdf)"),
             QStringLiteral("pdf")});
    QStringList filters;
    for (const auto &format : std::as_const(formats))
        filters.append(format.first);
    QString chosen;
    const QString path = QFileDialog::getSaveFileName(parent, title, suggested,
                                                      filters.join(QStringLiteral(";;")), &chosen);
    if (path.isEmpty())
        return {};
    QString suffix = formats.first().second;
    bool known = false;
    const QFileInfo file(path);
    for (const auto &format : std::as_const(formats)) {
        if (format.first == chosen)
            suffix = format.second;
        known = known || file.suffix() == format.second;
    }
    if (file.suffix().compare(suffix, Qt::CaseInsensitive) == 0)
        return path;
    // "balances.csv" with the workbook format chosen becomes "balances.xlsx".
    return file.dir().filePath((known ? file.completeBaseName() : file.fileName()) +
                               QLatin1Char('.') + suffix);
}

} // namespace md::views
