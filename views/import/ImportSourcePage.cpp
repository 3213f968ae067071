#include "views/import/ImportSourcePage.h"

#include "models/import/ImportBatch.h"
#include "models/import/ImportJournal.h"
#include "models/import/ImportPreviewModel.h"
#include "models/import/ImportSession.h"
#include "models/import/ImportSource.h"
#include "views/import/StripeSourcePanel.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QDateTime>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QStandardItemModel>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace md::views {

using namespace Qt::StringLiterals;

namespace {

constexpr int PreviewRecords = 20;

} // namespace

ImportSourcePage::ImportSourcePage(models::ImportSession *session)
    : QWizardPage()
    , m_session(session)
    , m_fromFile(new QRadioButton(tr("From a &file:"), this))
    , m_fromPaste(new QRadioButton(tr("&Pasted:"), this))
    , m_fromStripe(new QRadioButton(tr("From S&tripe:"), this))
    , m_stripe(new StripeSourcePanel(session, this))
    , m_path(new QLineEdit(this))
    , m_paste(new QPlainTextEdit(this))
    , m_format(new QComboBox(this))
    , m_encoding(new QComboBox(this))
    , m_separator(new QComboBox(this))
    , m_previewModel(new QStandardItemModel(this))
    , m_status(new QLabel(this))
    , m_journalNote(new QLabel(this))
    , m_resume(new QRadioButton(this))
    , m_newRun(new QRadioButton(this))
    , m_pasteDebounce(new QTimer(this))
    , m_pathDebounce(new QTimer(this))
{
    setTitle(tr("Source"));
    setSubTitle(tr("Customers as JSON Lines, a JSON array or CSV (see docs/import-formats.md), "
                   "or from the organization's Stripe account."));
    m_fromFile->setChecked(true);
    m_path->setPlaceholderText(tr("customers.csv, .jsonl or .json"));
    m_path->setClearButtonEnabled(true);
    auto *browse = new QPushButton(tr("&Browse…"), this);
    m_paste->setPlaceholderText(tr("Paste CSV or JSON Lines here"));
    m_paste->setMaximumHeight(120);
    m_paste->setEnabled(false);
    m_pasteDebounce->setSingleShot(true);
    m_pasteDebounce->setInterval(300);
    m_pathDebounce->setSingleShot(true);
    m_pathDebounce->setInterval(200);

    m_format->addItem(tr("CSV"), int(models::ImportFormat::Csv));
    m_format->addItem(tr("JSON Lines"), int(models::ImportFormat::JsonLines));
    m_format->addItem(tr("JSON array"), int(models::ImportFormat::JsonArray));
    m_encoding->addItem(tr("Automatic (UTF-8, else Latin-1)"),
                        int(models::TextEncoding::Automatic));
    m_encoding->addItem(tr("UTF-8"), int(models::TextEncoding::Utf8));
    m_encoding->addItem(tr("Latin-1"), int(models::TextEncoding::Latin1));
    m_separator->addItem(tr("Comma ( , )"), QChar(u','));
    m_separator->addItem(tr("Semicolon ( ; )"), QChar(u';'));
    m_separator->addItem(tr("Tab"), QChar(u'\t'));

    auto *fileRow = new QHBoxLayout;
    fileRow->addWidget(m_fromFile);
    fileRow->addWidget(m_path, 1);
    fileRow->addWidget(browse);
    auto *settings = new QFormLayout;
    settings->addRow(tr("F&ormat:"), m_format);
    settings->addRow(tr("&Encoding:"), m_encoding);
    settings->addRow(tr("&Separator:"), m_separator);
    auto *preview = new QTableView(this);
    preview->setModel(m_previewModel);
    preview->setEditTriggers(QAbstractItemView::NoEditTriggers);
    preview->horizontalHeader()->setStretchLastSection(true);
    preview->verticalHeader()->hide();
    m_status->setWordWrap(true);
    m_journalNote->setWordWrap(true);
    m_journalNote->setTextFormat(Qt::PlainText); // names a file and a connection
    m_journalNote->hide();
    m_resume->hide();
    m_newRun->hide();

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(fileRow);
    layout->addWidget(m_fromPaste);
    layout->addWidget(m_paste);
    layout->addWidget(m_fromStripe);
    layout->addWidget(m_stripe, 1);
    layout->addLayout(settings);
    layout->addWidget(new QLabel(tr("Preview (the first %1 records):").arg(PreviewRecords), this));
    layout->addWidget(preview, 1);
    layout->addWidget(m_status);
    layout->addWidget(m_journalNote);
    layout->addWidget(m_resume);
    layout->addWidget(m_newRun);

    auto *group = new QButtonGroup(this);
    group->addButton(m_fromFile);
    group->addButton(m_fromPaste);
    group->addButton(m_fromStripe);
    m_stripe->setEnabled(false);
    auto *run = new QButtonGroup(this);
    run->addButton(m_resume);
    run->addButton(m_newRun);
    connect(m_fromFile, &QRadioButton::toggled, this, [this](bool file) {
        m_path->setEnabled(file);
        if (file)
            m_path->setFocus();
    });
    connect(m_fromPaste, &QRadioButton::toggled, this, [this](bool paste) {
        m_paste->setEnabled(paste);
        if (paste)
            m_paste->setFocus();
    });
    // Stripe's bodies are JSON Lines: format and encoding are not asked.
    connect(m_fromStripe, &QRadioButton::toggled, this, [this](bool stripe) {
        m_stripe->setEnabled(stripe);
        for (QComboBox *setting : {m_format, m_encoding, m_separator})
            setting->setEnabled(!stripe);
        if (stripe)
            m_stripe->readButton()->setFocus();
    });
    connect(m_stripe, &StripeSourcePanel::bodiesReady, this,
            [this](const QByteArray &bodies, const QHash<QString, QString> &review) {
                m_loaded = !bodies.isEmpty();
                m_session->preview()->setReview(review);
                m_session->batch()->setSource({}, bodies);
                sourceChanged();
            });
    connect(browse, &QPushButton::clicked, this, &ImportSourcePage::browse);
    // The disk is read once typing pauses, not on every key; leaving the field reads at once.
    connect(m_path, &QLineEdit::textChanged, m_pathDebounce, qOverload<>(&QTimer::start));
    connect(m_pathDebounce, &QTimer::timeout, this, &ImportSourcePage::pathEdited);
    connect(m_path, &QLineEdit::editingFinished, this, &ImportSourcePage::pathEdited);
    connect(m_paste, &QPlainTextEdit::textChanged, m_pasteDebounce, qOverload<>(&QTimer::start));
    connect(m_pasteDebounce, &QTimer::timeout, this, &ImportSourcePage::pasted);
    for (QComboBox *combo : {m_format, m_encoding, m_separator})
        connect(combo, &QComboBox::activated, this, &ImportSourcePage::settingsChanged);
    connect(m_session, &models::ImportSession::targetKnown, this, &ImportSourcePage::showJournal);
    connect(m_session->batch(), &models::ImportBatch::readingStarted, this, [this] {
        if (m_loaded) // else the status says why there is nothing to read
            m_status->setText(tr("Reading…"));
        Q_EMIT completeChanged();
    });
    connect(m_session->batch(), &models::ImportBatch::ready, this, &ImportSourcePage::showPreview);
    connect(m_session->batch(), &models::ImportBatch::ready, this, &ImportSourcePage::showJournal);
    connect(m_resume, &QRadioButton::toggled, m_session, &models::ImportSession::setResume);
}

void ImportSourcePage::browse()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Import customers from"), m_path->text(),
        tr("Customer files (*.csv *.tsv *.txt *.jsonl *.ndjson *.json);;All files (*)"));
    if (!path.isEmpty())
        openFile(path);
}

void ImportSourcePage::pathEdited()
{
    m_pathDebounce->stop();
    if (!m_fromFile->isChecked())
        return; // pasted text is the source now
    const QString path = m_path->text();
    if (path.isEmpty())
        noSource({});
    else if (!m_loaded || path != m_session->batch()->sourcePath())
        openFile(path);
}

bool ImportSourcePage::openFile(const QString &path)
{
    m_fromFile->setChecked(true);
    if (m_path->text() != path) // as typed, it stays put under the cursor
        m_path->setText(path);
    m_pathDebounce->stop();
    const auto bytes = models::ImportSource::readFile(path);
    if (!bytes) {
        noSource(bytes.error().message);
        return false;
    }
    m_loaded = !bytes.value().trimmed().isEmpty();
    m_session->batch()->setSource(path, bytes.value());
    sourceChanged();
    return true;
}

void ImportSourcePage::noSource(const QString &why)
{
    m_loaded = false;
    m_previewModel->clear();
    m_status->setText(why);
    showJournal();
    Q_EMIT completeChanged();
}

void ImportSourcePage::pasted()
{
    const QByteArray bytes = m_paste->toPlainText().toUtf8();
    m_loaded = !bytes.trimmed().isEmpty();
    m_session->batch()->setSource({}, bytes);
    sourceChanged();
}

void ImportSourcePage::sourceChanged()
{
    // The rows may be read already: a small source is read before its
    // continuation is attached.
    const models::ImportBatch *batch = m_session->batch();
    m_format->setCurrentIndex(m_format->findData(int(batch->format())));
    m_encoding->setCurrentIndex(m_encoding->findData(int(batch->encoding())));
    m_separator->setCurrentIndex(m_separator->findData(batch->separator()));
    if (auto opened = m_session->openJournal(); !opened)
        QMessageBox::warning(this, wizard()->windowTitle(), opened.error().message);
    showJournal();
    if (!m_loaded)
        m_status->clear();
    Q_EMIT completeChanged();
}

void ImportSourcePage::settingsChanged()
{
    models::ImportBatch *batch = m_session->batch();
    const auto format = models::ImportFormat(m_format->currentData().toInt());
    const auto encoding = models::TextEncoding(m_encoding->currentData().toInt());
    const QChar separator = m_separator->currentData().value<QChar>();
    if (format != batch->format())
        batch->setFormat(format);
    if (encoding != batch->encoding())
        batch->setEncoding(encoding);
    if (separator != batch->separator())
        batch->setSeparator(separator);
}

void ImportSourcePage::showPreview()
{
    const models::ImportBatch *batch = m_session->batch();
    m_separator->setEnabled(batch->format() == models::ImportFormat::Csv);
    m_previewModel->clear();
    if (m_loaded) {
        const QList<QStringList> records = batch->preview(PreviewRecords);
        if (!records.isEmpty())
            m_previewModel->setHorizontalHeaderLabels(records.first());
        for (const QStringList &record : records.mid(1)) {
            QList<QStandardItem *> items;
            for (const QString &cell : record)
                items.append(new QStandardItem(cell));
            m_previewModel->appendRow(items);
        }
        m_status->setText(tr("%n row(s) read.", nullptr, batch->rowCount()));
    }
    // Not loaded: the status already says why, even when an older read ends now.
    Q_EMIT completeChanged();
}

void ImportSourcePage::showJournal()
{
    const models::ImportJournal *journal = m_session->journal();
    const bool earlier = m_loaded && journal && journal->exists();
    const bool sameTarget = earlier && journal->target() == m_session->target();
    m_journalNote->setVisible(earlier);
    m_resume->setVisible(sameTarget);
    m_newRun->setVisible(sameTarget);
    // An unfinished commit goes on unless told otherwise; a finished one is
    // run again only as a new run, whose preview shows what would change.
    const bool resume = sameTarget && !journal->finished();
    (resume ? m_resume : m_newRun)->setChecked(true);
    m_session->setResume(resume);
    if (!earlier)
        return;
    const auto when = [](qint64 ms) {
        return QLocale().toString(QDateTime::fromMSecsSinceEpoch(ms), QLocale::ShortFormat);
    };
    const int done = int(journal->done().size());
    const QString aside = QFileInfo(journal->previousPath()).fileName();
    QString note;
    if (!sameTarget)
        note = tr("An earlier commit of this source went to %1. A commit here begins a new "
                  "journal and keeps that one as %2.")
                   .arg(journal->target(), aside);
    else if (journal->finished())
        note = tr("This source was imported into %1 on %2: %n customer(s).", nullptr, done)
                   .arg(journal->target(), when(journal->finishedAt()));
    else
        note = tr("An earlier commit of this source, started %1, stopped after %n customer(s).",
                  nullptr, done)
                   .arg(when(journal->startedAt()));
    // Known once the rows are read (the page looks again then).
    const QByteArray &read = m_session->batch()->sourceHash();
    if (!read.isEmpty() && journal->sourceHash() != read)
        note += u' ' + tr("The source has changed since.");
    m_journalNote->setText(note);
    m_resume->setText(journal->finished() ? tr("&Resume: send only the customers it did not import")
                                          : tr("&Resume: skip the customers it committed"));
    m_newRun->setText(tr("Import it &again as a new run: the preview shows what would change "
                         "for each customer, and the journal is kept as %1")
                          .arg(aside));
}

bool ImportSourcePage::isComplete() const
{
    return m_loaded && !m_session->batch()->isReading() && m_session->batch()->rowCount() > 0;
}

} // namespace md::views
