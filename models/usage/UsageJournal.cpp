#include "models/usage/UsageJournal.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace md::models {

using namespace Qt::StringLiterals;

QString UsageJournal::pathFor(const QString &sourcePath)
{
    return sourcePath + u".usage-journal.json"_s;
}

std::optional<UsageJournal> UsageJournal::load(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QJsonObject object = QJsonDocument::fromJson(file.readAll()).object();
    if (!object.value(u"source_sha256"_s).isString())
        return std::nullopt;
    return UsageJournal{
        object.value(u"target"_s).toString(),
        object.value(u"source_sha256"_s).toString().toLatin1(),
        object.value(u"order_sha256"_s).toString().toLatin1(),
        qint64(object.value(u"committed"_s).toDouble()),
        qint64(object.value(u"total"_s).toDouble()),
        qint64(object.value(u"saved_at"_s).toDouble()),
        UsageKeyFormat(object.value(u"key_format"_s).toInt(int(UsageKeyFormat::EventOnly)))};
}

UsageKeyFormat UsageJournal::keyFormatFor(const QString &sourcePath)
{
    const auto journal = load(pathFor(sourcePath));
    return journal ? journal->keyFormat : UsageKeyFormat::ByCustomer;
}

api::Result<api::Done> UsageJournal::save(const QString &path) const
{
    QSaveFile file(path);
    const QJsonObject object{{u"target"_s, target},
                             {u"source_sha256"_s, QString::fromLatin1(sourceHash)},
                             {u"order_sha256"_s, QString::fromLatin1(orderHash)},
                             {u"committed"_s, committed},
                             {u"total"_s, total},
                             {u"saved_at"_s, savedAt},
                             {u"key_format"_s, int(keyFormat)}};
    if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(object).toJson()) < 0 ||
        !file.commit())
        return api::ApiError::local(
            u"journal_unwritable"_s,
            QCoreApplication::translate("UsageJournal", "%1 cannot be written: %2")
                .arg(path, file.errorString()));
    return api::Done{};
}

} // namespace md::models
