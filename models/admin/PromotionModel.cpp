#include "models/admin/PromotionModel.h"

#include "services/backend/BillingBackend.h"

namespace md::models {

using namespace Qt::StringLiterals;

namespace {

// A field's value as a person reads it: text as it is, anything else as JSON.
QString shown(const api::JsonValue &value)
{
    if (value.isUndefined())
        return PromotionModel::tr("(none)");
    if (value.isString())
        return value.toString();
    return QString::fromUtf8(value.toJson());
}

} // namespace

PromotionModel::PromotionModel(backend::BillingBackend *backend, QObject *parent)
    : ListTableModel(ColumnCount, parent)
    , m_backend(backend)
{}

void PromotionModel::reload()
{
    load(m_backend->environmentDiff(), [this](const api::EnvironmentDiff &diff) {
        replaceRows([&] {
            m_diff = diff;
            m_chosen = QList<bool>(diff.products.size() + diff.rewards.size(), false);
        });
        Q_EMIT chosenChanged();
    });
}

PromotionModel::Row PromotionModel::rowAt(int row) const
{
    // Products first, then rewards.
    const qsizetype products = m_diff.products.size();
    return row < products ? Row{true, row} : Row{false, row - products};
}

QString PromotionModel::idAt(int row) const
{
    const Row at = rowAt(row);
    return at.product ? m_diff.products.at(at.index).id : m_diff.rewards.at(at.index).id;
}

api::DiffChange PromotionModel::changeAt(int row) const
{
    const Row at = rowAt(row);
    return at.product ? m_diff.products.at(at.index).change : m_diff.rewards.at(at.index).change;
}

const QList<api::FieldDifference> &PromotionModel::differencesAt(int row) const
{
    const Row at = rowAt(row);
    return at.product ? m_diff.products.at(at.index).fields : m_diff.rewards.at(at.index).fields;
}

QList<FieldChange> PromotionModel::fieldsOf(int row) const
{
    QList<FieldChange> changes;
    for (const api::FieldDifference &field : differencesAt(row))
        changes.append({field.field, shown(field.production), shown(field.sandbox)});
    return changes;
}

QList<FieldChange> PromotionModel::chosenChanges() const
{
    QList<FieldChange> changes;
    for (int row = 0; row < rowCount(); ++row) {
        if (!m_chosen.value(row))
            continue;
        const QString entry =
            rowAt(row).product ? tr("product %1").arg(idAt(row)) : tr("reward %1").arg(idAt(row));
        for (FieldChange change : fieldsOf(row)) {
            change.field = entry + u" · "_s + change.field;
            changes.append(change);
        }
    }
    return changes;
}

int PromotionModel::chosenCount() const
{
    return int(m_chosen.count(true));
}

void PromotionModel::chooseAll(bool chosen)
{
    m_chosen.fill(chosen);
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, KindColumn), index(rowCount() - 1, KindColumn),
                           {Qt::CheckStateRole});
    Q_EMIT chosenChanged();
}

void PromotionModel::toggleChosen(int row)
{
    setData(index(row, KindColumn), m_chosen.value(row) ? Qt::Unchecked : Qt::Checked,
            Qt::CheckStateRole);
}

QFuture<api::Result<api::EnvironmentPromoted>> PromotionModel::promoteChosen()
{
    QStringList products, rewards;
    for (int row = 0; row < rowCount(); ++row)
        if (m_chosen.value(row))
            (rowAt(row).product ? products : rewards).append(idAt(row));
    return m_backend->promoteEnvironment(m_diff.promotion(products, rewards))
        .then(this, [this](const api::Result<api::EnvironmentPromoted> &promoted) {
            if (promoted)
                m_last = promoted.value();
            return promoted;
        });
}

QFuture<api::Result<QString>> PromotionModel::undoLast()
{
    if (!m_last)
        return QtFuture::makeReadyFuture(api::Result<QString>(
            api::ApiError::local(u"nothing_to_undo"_s, tr("There is no promotion to undo."))));
    const api::EnvironmentPromotion undo = m_last->undoing();
    const int steps = int(undo.products.size() + undo.rewards.size());
    return m_backend->promoteEnvironment(undo).then(
        this, [this, steps](const api::Result<api::EnvironmentPromoted> &undone) {
            if (!undone)
                return api::Result<QString>(undone.error());
            m_last.reset();
            return api::Result<QString>(tr("production (%n promoted change(s))", nullptr, steps));
        });
}

int PromotionModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_diff.products.size() + m_diff.rewards.size());
}

QVariant PromotionModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int row = index.row();
    if (role == Qt::CheckStateRole && index.column() == KindColumn)
        return m_chosen.value(row) ? Qt::Checked : Qt::Unchecked;
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case KindColumn:
        return rowAt(row).product ? tr("Product") : tr("Reward");
    case IdColumn:
        return idAt(row);
    case ChangeColumn:
        switch (changeAt(row)) {
        case api::DiffChange::Added:
            return tr("only in sandbox");
        case api::DiffChange::Removed:
            return tr("only in production");
        case api::DiffChange::Changed:
            return tr("changed");
        }
        return {};
    case FieldsColumn: {
        QStringList names;
        for (const api::FieldDifference &field : differencesAt(row))
            names.append(field.field);
        return names.join(u", "_s);
    }
    }
    return {};
}

bool PromotionModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) ||
        role != Qt::CheckStateRole || index.column() != KindColumn)
        return false;
    m_chosen[index.row()] = value.value<Qt::CheckState>() == Qt::Checked;
    Q_EMIT dataChanged(index, index, {Qt::CheckStateRole});
    Q_EMIT chosenChanged();
    return true;
}

Qt::ItemFlags PromotionModel::flags(const QModelIndex &index) const
{
    Qt::ItemFlags flags = ListTableModel::flags(index);
    if (index.isValid() && index.column() == KindColumn)
        flags |= Qt::ItemIsUserCheckable;
    return flags;
}

QVariant PromotionModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case KindColumn:
        return tr("Kind");
    case IdColumn:
        return tr("Id");
    case ChangeColumn:
        return tr("Difference");
    case FieldsColumn:
        return tr("Fields");
    }
    return {};
}

} // namespace md::models
