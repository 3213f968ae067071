// Reading back a PDF the console wrote: its page count (pdfinfo) and the
// text of a page range (pdftotext), both from poppler-utils, installed by
// scripts/setup.sh.
#pragma once

#include <QProcess>
#include <QRegularExpression>
#include <QString>

namespace md::test {

inline QString runPoppler(const QString &program, const QStringList &arguments)
{
    QProcess tool;
    tool.start(program, arguments);
    if (!tool.waitForFinished(30000) || tool.exitCode() != 0)
        return {};
    return QString::fromUtf8(tool.readAllStandardOutput());
}

// -1 when the file is not a PDF pdfinfo can read.
inline int pdfPages(const QString &path)
{
    const auto match = QRegularExpression(QStringLiteral("Pages:\\s+(\\d+)"))
                           .match(runPoppler(QStringLiteral("pdfinfo"), {path}));
    return match.hasMatch() ? match.captured(1).toInt() : -1;
}

// The text of pages `first` to `last` (from 1), in reading order.
inline QString pdfText(const QString &path, int first, int last)
{
    return runPoppler(QStringLiteral("pdftotext"),
                      {QStringLiteral("-f"), QString::number(first), QStringLiteral("-l"),
                       QString::number(last), path, QStringLiteral("-")});
}

} // namespace md::test
