// Reading back what an exported workbook holds: a part of the zip (through
// `unzip -p`, installed by scripts/setup.sh) and its cells by reference.
#pragma once

#include <QProcess>
#include <QRegularExpression>
#include <QString>

#include <optional>

namespace md::test {

// The text of `member` ("xl/worksheets/sheet1.xml") in the workbook at `path`.
inline QString xlsxPart(const QString &path, const QString &member)
{
    QProcess unzip;
    unzip.start(QStringLiteral("unzip"), {QStringLiteral("-p"), path, member});
    if (!unzip.waitForFinished(30000) || unzip.exitCode() != 0)
        return {};
    return QString::fromUtf8(unzip.readAllStandardOutput());
}

struct XlsxCell
{
    QString type;  // "" (a number), "b", "inlineStr", "s", …
    QString style; // the s attribute
    QString value; // <v> or the inline string's text
};

// The cell `reference` ("F2") of a sheet's XML; nullopt when it is not there.
inline std::optional<XlsxCell> xlsxCell(const QString &sheet, const QString &reference)
{
    const QRegularExpression cell(QStringLiteral("<c r=\"%1\"([^>]*)>(.*?)</c>").arg(reference));
    const auto match = cell.match(sheet);
    if (!match.hasMatch())
        return std::nullopt;
    const auto attribute = [&](const QString &name) {
        const auto found = QRegularExpression(QStringLiteral("\\b%1=\"([^\"]*)\"").arg(name))
                               .match(match.captured(1));
        return found.hasMatch() ? found.captured(1) : QString();
    };
    const auto content =
        QRegularExpression(QStringLiteral("<(?:v|t)[^>]*>([^<]*)</")).match(match.captured(2));
    return XlsxCell{attribute(QStringLiteral("t")), attribute(QStringLiteral("s")),
                    content.hasMatch() ? content.captured(1) : QString()};
}

} // namespace md::test
