#include "models/balances/SavedViews.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

namespace md::models {

using namespace Qt::StringLiterals;

void SavedViews::save(const QString &name, const BalanceFilter &filter)
{
    for (View &view : m_views) {
        if (view.name == name) {
            view.filter = filter;
            return;
        }
    }
    m_views.append({name, filter});
}

bool SavedViews::remove(const QString &name)
{
    return m_views.removeIf([&](const View &view) { return view.name == name; }) > 0;
}

std::optional<BalanceFilter> SavedViews::find(const QString &name) const
{
    for (const View &view : m_views)
        if (view.name == name)
            return view.filter;
    return std::nullopt;
}

QByteArray SavedViews::toJson() const
{
    QJsonArray views;
    for (const View &view : m_views)
        views.append(QJsonObject{{u"name"_s, view.name}, {u"filter"_s, view.filter.toJson()}});
    return QJsonDocument(QJsonObject{{u"format"_s, u"meterdesk-views"_s},
                                     {u"version"_s, 1},
                                     {u"views"_s, views}})
        .toJson();
}

api::Result<api::Done> SavedViews::mergeJson(const QByteArray &json)
{
    const auto fail = [](const QString &why) {
        return api::ApiError::local(u"views_file_damaged"_s, why);
    };
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return fail(QCoreApplication::translate("SavedViews", "The file is not JSON: %1.")
                        .arg(parseError.errorString()));
    const QJsonObject root = document.object();
    if (root.value(u"format"_s).toString() != "meterdesk-views"_L1)
        return fail(
            QCoreApplication::translate("SavedViews", "The file is not a Meterdesk views file."));
    QList<View> incoming;
    const QJsonArray views = root.value(u"views"_s).toArray();
    for (qsizetype i = 0; i < views.size(); ++i) {
        const QJsonObject view = views.at(i).toObject();
        const QString name = view.value(u"name"_s).toString().trimmed();
        const auto filter = BalanceFilter::fromJson(view.value(u"filter"_s).toObject());
        if (name.isEmpty() || !filter)
            return fail(QCoreApplication::translate("SavedViews", "View %1 in the file is damaged.")
                            .arg(i + 1));
        incoming.append({name, *filter});
    }
    for (const View &view : std::as_const(incoming))
        save(view.name, view.filter);
    return api::Done{};
}

api::Result<api::Done> SavedViews::writeFile(const QString &path) const
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(toJson()) < 0 || !file.commit())
        return api::ApiError::local(u"file_unwritable"_s,
                                    QCoreApplication::translate("SavedViews", "Cannot write %1: %2")
                                        .arg(path, file.errorString()));
    return api::Done{};
}

api::Result<api::Done> SavedViews::mergeFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return api::ApiError::local(u"file_unreadable"_s,
                                    QCoreApplication::translate("SavedViews", "Cannot read %1: %2")
                                        .arg(path, file.errorString()));
    return mergeJson(file.readAll());
}

} // namespace md::models
