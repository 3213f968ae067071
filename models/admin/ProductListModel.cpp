#include "models/admin/ProductListModel.h"

#include "models/admin/ProductEdit.h"

#include "services/backend/BillingBackend.h"

#include <QHash>

namespace md::models {

using namespace Qt::StringLiterals;

ProductListModel::ProductListModel(backend::BillingBackend *backend, QObject *parent)
    : EditableListModel(ColumnCount, parent)
    , m_backend(backend)
{}

void ProductListModel::reload()
{
    load(m_backend->listProducts(), [this](const api::Page<api::Product> &products) {
        QList<api::Product> newest;
        QHash<QString, qsizetype> at;
        for (const api::Product &product : products.list) {
            const auto seen = at.constFind(product.id);
            if (seen == at.cend()) {
                at.insert(product.id, newest.size());
                newest.append(product);
            } else if (product.version > newest.at(*seen).version) {
                newest[*seen] = product;
            }
        }
        replaceRows([&] { m_rows = newest; });
    });
}

int ProductListModel::rowOf(const QString &id) const
{
    for (int r = 0; r < m_rows.size(); ++r)
        if (m_rows.at(r).id == id)
            return r;
    return -1;
}

int ProductListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant ProductListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const api::Product &p = m_rows.at(index.row());
    const auto flag = [role](bool on) {
        return role == Qt::CheckStateRole ? QVariant(on ? Qt::Checked : Qt::Unchecked) : QVariant();
    };
    switch (index.column()) {
    case AddOnColumn:
        return flag(p.isAddOn);
    case DefaultColumn:
        return flag(p.isDefault);
    case ArchivedColumn:
        return flag(p.archived);
    default:
        break;
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case NameColumn:
        return p.name;
    case IdColumn:
        return p.id;
    case GroupColumn:
        return p.group.value_or(QString());
    case VersionColumn:
        return p.version;
    case EnvColumn:
        return QString(api::toWire(p.env));
    }
    return {};
}

QVariant ProductListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case NameColumn:
        return tr("Name");
    case IdColumn:
        return tr("Id");
    case GroupColumn:
        return tr("Group");
    case VersionColumn:
        return tr("Version");
    case AddOnColumn:
        return tr("Add-on");
    case DefaultColumn:
        return tr("Default");
    case ArchivedColumn:
        return tr("Archived");
    case EnvColumn:
        return tr("Environment");
    }
    return {};
}

QFuture<api::Result<api::Product>> ProductListModel::save(const QString &productId,
                                                          const api::UpdateProductRequest &request)
{
    return m_backend->updateProduct(productId, request);
}

QFuture<api::Result<api::Product>> ProductListModel::preview(const QString &productId,
                                                             api::UpdateProductRequest request)
{
    request.dryRun = true;
    return m_backend->updateProduct(productId, request);
}

QFuture<api::Result<api::Page<api::FeatureInfo>>> ProductListModel::features()
{
    return m_backend->listFeatures();
}

void ProductListModel::remember(const api::Product &before, const api::Product &after)
{
    m_lastChange = {before, after};
}

QFuture<api::Result<QString>> ProductListModel::undoLast()
{
    if (!m_lastChange)
        return nothingToUndo();
    const auto [before, after] = *m_lastChange;
    if (ProductEdit::undo(before, after) == api::UpdateProductRequest())
        return QtFuture::makeReadyFuture(api::Result<QString>(api::ApiError::local(
            u"nothing_to_undo"_s,
            tr("The last save of %1 changed nothing that Undo can write back.").arg(after.id))));
    if (after.version == before.version)
        return writeBack();
    // A renumbered version frees its old number; a version the save added
    // leaves the old one beside it, and no route takes a version away.
    return m_backend->listProducts()
        .then(this,
              [this, before, after](const api::Result<api::Page<api::Product>> &products) {
                  if (!products)
                      return QtFuture::makeReadyFuture(api::Result<QString>(products.error()));
                  for (const api::Product &product : products.value().list)
                      if (product.id == after.id && product.version == before.version)
                          return QtFuture::makeReadyFuture(
                              api::Result<QString>(api::ApiError::local(
                                  u"version_added"_s,
                                  tr("saving made version %1 of %2 beside version %3, which "
                                     "customers are on, and a version cannot be taken away. "
                                     "Edit %2 to change version %1.")
                                      .arg(after.version)
                                      .arg(after.id)
                                      .arg(before.version))));
                  return writeBack();
              })
        .unwrap();
}

QFuture<api::Result<QString>> ProductListModel::writeBack()
{
    if (!m_lastChange)
        return nothingToUndo();
    const auto [before, after] = *m_lastChange;
    return save(after.id, ProductEdit::undo(before, after))
        .then(this, [this, id = before.id](const api::Result<api::Product> &undone) {
            if (!undone)
                return api::Result<QString>(undone.error());
            m_lastChange.reset();
            return api::Result<QString>(id);
        });
}

} // namespace md::models
