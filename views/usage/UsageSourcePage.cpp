#include "views/usage/UsageSourcePage.h"

#include "models/common/SavedProfiles.h"
#include "models/import/ImportJournal.h"
#include "models/usage/UsageImportSession.h"
#include "models/usage/UsageJournal.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace md::views {

using namespace Qt::StringLiterals;
using models::UsageField;

namespace {

// Problems listed at most (the summary counts them all).
constexpr int ShownProblems = 1000;

const models::SavedProfiles Profiles(u"usageImport/csvProfiles"_s);

} // namespace

struct UsageSourcePage::Loaded
{
    quint64 generation = 0;
    QString path;
    QByteArray hash;
    QString keyPrefix;
    models::UsageFileContent content;
    models::UsageMapping mapping; // what the CSV rows were checked with
    QList<models::UsageBackfill::Item> items;
    QByteArray orderHash;
    QString error;
};

UsageSourcePage::UsageSourcePage(models::UsageImportSession *session)
    : QWizardPage()
    , m_session(session)
    , m_path(new QLineEdit(this))
    , m_mappingBox(new QWidget(this))
    , m_profiles(new QComboBox(this))
    , m_summary(new QLabel(this))
    , m_busy(new QProgressBar(this))
    , m_problems(new QStandardItemModel(0, 4, this))
    , m_resume(new QCheckBox(this))
{
    setTitle(tr("Source"));
    setSubTitle(tr("Past usage as CSV, a JSON array or JSON Lines (see docs/import-formats.md, "
                   "\"Usage\"). Nothing is sent until the commit."));
    m_path->setPlaceholderText(tr("usage.csv, .json or .jsonl"));
    m_path->setClearButtonEnabled(true);
    m_path->setAccessibleName(tr("Usage file"));
    auto *browse = new QPushButton(tr("Bro&wse…"), this);
    auto *fileRow = new QHBoxLayout;
    fileRow->addWidget(new QLabel(tr("Fi&le:"), this));
    fileRow->addWidget(m_path, 1);
    fileRow->addWidget(browse);
    qobject_cast<QLabel *>(fileRow->itemAt(0)->widget())->setBuddy(m_path);

    // The columns of a CSV: one choice per field of the event.
    auto *mapping = new QFormLayout(m_mappingBox);
    const std::pair<UsageField, QString> fields[] = {
        {UsageField::CustomerId, tr("C&ustomer id:")},
        {UsageField::FeatureId, tr("Fea&ture id:")},
        {UsageField::Value, tr("&Value:")},
        {UsageField::ModelId, tr("&Model (AI calls):")},
        {UsageField::InputTokens, tr("&Input tokens:")},
        {UsageField::OutputTokens, tr("&Output tokens:")},
        {UsageField::Timestamp, tr("Tim&e:")},
        {UsageField::EntityId, tr("Entit&y id:")},
        {UsageField::IdempotencyKey, tr("Idempotency &key:")},
    };
    for (const auto &[field, label] : fields) {
        auto *combo = new QComboBox(m_mappingBox);
        combo->setAccessibleName(label);
        connect(combo, &QComboBox::currentIndexChanged, this, &UsageSourcePage::mappingEdited);
        mapping->addRow(label, combo);
        m_fields.insert(field, combo);
    }
    auto *saveProfileButton = new QPushButton(tr("S&ave as profile…"), m_mappingBox);
    auto *deleteProfileButton = new QPushButton(tr("Delete profile"), m_mappingBox);
    auto *profileRow = new QHBoxLayout;
    profileRow->addWidget(m_profiles, 1);
    profileRow->addWidget(saveProfileButton);
    profileRow->addWidget(deleteProfileButton);
    auto *profileLabel = new QLabel(tr("&Profile:"), m_mappingBox);
    profileLabel->setBuddy(m_profiles);
    mapping->addRow(profileLabel, profileRow);
    m_profiles->setAccessibleName(tr("Saved column profiles"));
    m_mappingBox->hide();

    m_busy->setRange(0, 0); // reading: no measure of how far
    m_busy->hide();
    m_summary->setWordWrap(true);
    m_problems->setHorizontalHeaderLabels({tr("Line"), tr("Column"), tr("Cell"), tr("Problem")});
    auto *problems = new QTableView(this);
    problems->setModel(m_problems);
    problems->setEditTriggers(QAbstractItemView::NoEditTriggers);
    problems->horizontalHeader()->setStretchLastSection(true);
    problems->verticalHeader()->hide();
    problems->setAccessibleName(tr("Rows with problems"));
    m_resume->hide();

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(fileRow);
    layout->addWidget(m_mappingBox);
    layout->addWidget(m_busy);
    layout->addWidget(m_summary);
    layout->addWidget(problems, 1);
    layout->addWidget(m_resume);

    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Usage file"), m_path->text(),
                                         tr("Usage (*.csv *.json *.jsonl);;All files (*)"));
        if (!path.isEmpty())
            m_path->setText(path);
        readFile(m_path->text());
    });
    connect(m_path, &QLineEdit::editingFinished, this, [this] {
        if (m_path->text() != m_session->sourcePath())
            readFile(m_path->text());
    });
    connect(saveProfileButton, &QPushButton::clicked, this, &UsageSourcePage::saveProfile);
    connect(deleteProfileButton, &QPushButton::clicked, this, &UsageSourcePage::deleteProfile);
    connect(m_profiles, &QComboBox::activated, this,
            [this](int index) { loadProfile(m_profiles->itemText(index)); });
    connect(m_resume, &QCheckBox::toggled, this, [this](bool resume) {
        m_session->setResumeFrom(resume ? m_resume->property("committed").toLongLong() : 0);
    });
    connect(session, &models::UsageImportSession::targetKnown, this, &UsageSourcePage::showResume);
}

void UsageSourcePage::readFile(const QString &path)
{
    if (path.trimmed().isEmpty())
        return;
    m_readingFile = true;
    start([path] {
        Loaded result;
        result.path = path;
        auto bytes = models::ImportSource::readFile(path);
        if (!bytes) {
            result.error = bytes.error().message;
            return result;
        }
        result.hash = models::ImportJournal::hash(bytes.value());
        result.keyPrefix = models::UsageFile::keyPrefix(bytes.value());
        result.content = models::UsageFile::read(bytes.value(), path, {}, result.keyPrefix,
                                                 models::UsageJournal::keyFormatFor(path));
        result.mapping = models::UsageMapping::guess(result.content.header);
        result.items = models::UsageBackfill::order(result.content.rows);
        result.orderHash = models::UsageBackfill::orderHash(result.items);
        return result;
    });
}

void UsageSourcePage::mappingEdited()
{
    if (m_showingMapping || m_readingFile)
        return; // a file being read brings its own columns
    // Checked again off this thread (a newer edit's answer replaces this one's): a million rows
    // take a while.
    start([content = m_session->content(), mapping = mappingShown(), path = m_session->sourcePath(),
           hash = m_session->sourceHash(), prefix = m_keyPrefix]() mutable {
        Loaded result{0, path, hash, prefix, std::move(content), mapping, {}, {}, {}};
        models::UsageFile::remap(result.content, mapping, prefix);
        result.items = models::UsageBackfill::order(result.content.rows);
        result.orderHash = models::UsageBackfill::orderHash(result.items);
        return result;
    });
}

void UsageSourcePage::start(std::function<Loaded()> work)
{
    const quint64 generation = ++m_generation;
    m_reading = true;
    m_busy->show();
    m_summary->setText(tr("Reading…"));
    Q_EMIT completeChanged();
    QtConcurrent::run([work = std::move(work)] {
        return work();
    }).then(this, [this, generation](Loaded result) {
        if (generation != m_generation)
            return; // a newer read is under way
        loaded(result);
    });
}

void UsageSourcePage::loaded(const Loaded &result)
{
    m_reading = false;
    m_readingFile = false;
    m_busy->hide();
    if (!result.error.isEmpty()) {
        m_session->setContent({}, result.path, {});
        m_items.clear();
        m_summary->setText(result.error);
    } else {
        m_keyPrefix = result.keyPrefix;
        m_items = result.items;
        m_session->setContent(result.content, result.path, result.hash);
        m_session->setOrderHash(result.orderHash);
        const qsizetype rows = result.content.rows.size();
        const qsizetype ready = result.items.size();
        m_summary->setText(
            tr("%Ln row(s): ", "", int(rows)) +
            tr("%1 ready to send, %2 with problems (left out; fix them in the file and read it "
               "again).")
                .arg(QLocale().toString(ready), QLocale().toString(rows - ready)));
    }
    showMapping(result.mapping);
    showProblems();
    showResume();
    Q_EMIT completeChanged();
    Q_EMIT read();
}

models::UsageMapping UsageSourcePage::mappingShown() const
{
    models::UsageMapping mapping;
    for (auto it = m_fields.cbegin(); it != m_fields.cend(); ++it)
        if (const int column = it.value()->currentData().toInt(); column >= 0)
            mapping.columns.insert(it.key(), column);
    return mapping;
}

void UsageSourcePage::showMapping(const models::UsageMapping &current)
{
    const models::UsageFileContent &content = m_session->content();
    const bool csv = content.format == models::ImportFormat::Csv && !content.header.isEmpty();
    m_mappingBox->setVisible(csv);
    if (!csv)
        return;
    m_showingMapping = true;
    for (auto it = m_fields.cbegin(); it != m_fields.cend(); ++it) {
        QComboBox *combo = it.value();
        combo->clear();
        combo->addItem(tr("(not in the file)"), -1);
        for (int c = 0; c < content.header.size(); ++c)
            combo->addItem(content.header.at(c), c);
        combo->setCurrentIndex(combo->findData(current.column(it.key())));
    }
    m_profiles->clear();
    m_profiles->addItems(Profiles.names());
    m_profiles->setCurrentIndex(-1);
    m_showingMapping = false;
}

void UsageSourcePage::showProblems()
{
    m_problems->removeRows(0, m_problems->rowCount());
    const models::UsageFileContent &content = m_session->content();
    int shown = 0;
    for (const models::UsageRow &row : content.rows) {
        if (row.isValid())
            continue;
        const auto add = [&](const QString &column, const QString &cell, const QString &problem) {
            if (shown++ >= ShownProblems)
                return;
            m_problems->appendRow({new QStandardItem(QString::number(row.line)),
                                   new QStandardItem(column), new QStandardItem(cell),
                                   new QStandardItem(problem)});
        };
        for (auto it = row.cellErrors.cbegin(); it != row.cellErrors.cend(); ++it)
            add(content.header.value(it.key()), row.cells.value(it.key()), it.value());
        if (!row.error.isEmpty())
            add(QString(), QString(), row.error);
        if (shown >= ShownProblems)
            break;
    }
}

void UsageSourcePage::showResume()
{
    m_resume->hide();
    m_resume->setChecked(false);
    m_session->setResumeFrom(0);
    if (m_session->sourceHash().isEmpty() || m_session->target().isEmpty())
        return;
    const auto journal =
        models::UsageJournal::load(models::UsageJournal::pathFor(m_session->sourcePath()));
    if (!journal || journal->sourceHash != m_session->sourceHash() ||
        journal->orderHash != m_session->orderHash() || journal->target != m_session->target() ||
        journal->committed <= 0 || journal->committed >= journal->total ||
        journal->total != qint64(m_items.size()))
        return;
    m_resume->setProperty("committed", journal->committed);
    m_resume->setText(tr("&Resume: %1 of %2 events were committed on %3; send the rest")
                          .arg(QLocale().toString(journal->committed),
                               QLocale().toString(journal->total),
                               QLocale().toString(QDateTime::fromMSecsSinceEpoch(journal->savedAt),
                                                  QLocale::ShortFormat)));
    m_resume->show();
    m_resume->setChecked(true);
}

void UsageSourcePage::saveProfile()
{
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Save profile"), tr("Profile name:"),
                                               QLineEdit::Normal, m_profiles->currentText(), &ok)
                             .trimmed();
    if (!ok || name.isEmpty())
        return;
    Profiles.save(name, mappingShown().toJson(m_session->content().header));
    showMapping(mappingShown());
    m_profiles->setCurrentText(name);
}

void UsageSourcePage::loadProfile(const QString &name)
{
    const auto profile = Profiles.load(name);
    if (!profile)
        return;
    const auto mapping = models::UsageMapping::fromJson(*profile, m_session->content().header);
    m_showingMapping = true;
    for (auto it = m_fields.cbegin(); it != m_fields.cend(); ++it)
        it.value()->setCurrentIndex(it.value()->findData(mapping.column(it.key())));
    m_showingMapping = false;
    mappingEdited();
}

void UsageSourcePage::deleteProfile()
{
    if (m_profiles->currentIndex() < 0)
        return;
    Profiles.remove(m_profiles->currentText());
    showMapping(mappingShown());
}

bool UsageSourcePage::isComplete() const
{
    return !m_reading && !m_items.isEmpty();
}

bool UsageSourcePage::validatePage()
{
    m_session->backfill()->setItems(m_items);
    return true;
}

} // namespace md::views
