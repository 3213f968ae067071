// Named Balances filters ("Month end", "Expired AI credits"), kept in the
// window state and exchanged as a small JSON file.
#pragma once

#include "models/BalanceFilter.h"

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
    // Replaces nothing on failure; `error` says what is wrong with the file.
    bool mergeJson(const QByteArray &json, QString *error);

private:
    QList<View> m_views;
};

} // namespace md::models
