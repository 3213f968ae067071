// Named Balances filters ("Month end", "Expired AI credits"), kept in the
// window state and exchanged as a small JSON file.
#pragma once

#include "models/balances/BalanceFilter.h"
#include "services/api/Result.h"

#include <QList>
#include <QString>

namespace md::models {

class SavedViews final
{
public:
    struct View
    {
        QString name;
        BalanceFilter filter;
        friend bool operator==(const View &, const View &) = default;
    };

    const QList<View> &views() const { return m_views; }
    // Adds or replaces the view of that name.
    void save(const QString &name, const BalanceFilter &filter);
    bool remove(const QString &name);
    std::optional<BalanceFilter> find(const QString &name) const;

    QByteArray toJson() const;
    // Adds the views of a views file; on failure changes nothing and says
    // what is wrong with the file.
    api::Result<api::Done> mergeJson(const QByteArray &json);
    // The same with files: written whole or not at all, and read.
    api::Result<api::Done> writeFile(const QString &path) const;
    api::Result<api::Done> mergeFile(const QString &path);

private:
    QList<View> m_views;
};

} // namespace md::models
