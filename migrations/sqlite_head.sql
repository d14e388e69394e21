-- The schema the migrations build in a new SQLite database: engine/store/fresh.py makes a new database
-- with it instead of running them. Written by `python -m engine.store.fresh`; do not edit by hand.
-- revision: 0018

CREATE TABLE ag_ballots (
	id INTEGER NOT NULL, 
	election_id INTEGER NOT NULL, 
	voter_id INTEGER NOT NULL, 
	candidate_id INTEGER NOT NULL, 
	cast_at DATETIME NOT NULL, 
	source_id VARCHAR(64), 
	CONSTRAINT fk_ag_ballots_candidate_id_players FOREIGN KEY(candidate_id) REFERENCES players (id) ON DELETE CASCADE, 
	CONSTRAINT fk_ag_ballots_election_id_ag_elections FOREIGN KEY(election_id) REFERENCES ag_elections (id) ON DELETE CASCADE, 
	CONSTRAINT fk_ag_ballots_voter_id_players FOREIGN KEY(voter_id) REFERENCES players (id) ON DELETE CASCADE, 
	CONSTRAINT pk_ag_ballots PRIMARY KEY (id), 
	CONSTRAINT uq_ag_ballots_election_id_voter_id UNIQUE (election_id, voter_id)
);
CREATE TABLE ag_elections (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	number INTEGER NOT NULL, 
	reason VARCHAR(32) NOT NULL, 
	status VARCHAR(16) NOT NULL, 
	opened_at DATETIME NOT NULL, 
	closes_at DATETIME, 
	closes_with_round INTEGER, 
	closed_at DATETIME, 
	winner_id INTEGER, 
	thread_id BIGINT, 
	CONSTRAINT fk_ag_elections_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT fk_ag_elections_winner_id_players FOREIGN KEY(winner_id) REFERENCES players (id) ON DELETE SET NULL, 
	CONSTRAINT pk_ag_elections PRIMARY KEY (id), 
	CONSTRAINT uq_ag_elections_game_id_number UNIQUE (game_id, number)
);
CREATE TABLE alembic_version (
	version_num VARCHAR(32) NOT NULL, 
	CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)
);
CREATE TABLE audits (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	round_number INTEGER NOT NULL, 
	target_id INTEGER NOT NULL, 
	rounds JSON NOT NULL, 
	fee INTEGER NOT NULL, 
	share INTEGER NOT NULL, 
	vote_id INTEGER, 
	at DATETIME NOT NULL, 
	CONSTRAINT fk_audits_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT fk_audits_target_id_players FOREIGN KEY(target_id) REFERENCES players (id) ON DELETE CASCADE, 
	CONSTRAINT fk_audits_vote_id_player_votes FOREIGN KEY(vote_id) REFERENCES player_votes (id) ON DELETE SET NULL, 
	CONSTRAINT pk_audits PRIMARY KEY (id)
);
CREATE TABLE ballots (
	id INTEGER NOT NULL, 
	round_id INTEGER NOT NULL, 
	player_id INTEGER NOT NULL, 
	option VARCHAR(16) NOT NULL, 
	declared INTEGER, 
	revotes INTEGER NOT NULL, 
	received_at DATETIME NOT NULL, 
	source_id VARCHAR(64), 
	CONSTRAINT fk_ballots_player_id_players FOREIGN KEY(player_id) REFERENCES players (id) ON DELETE CASCADE, 
	CONSTRAINT fk_ballots_round_id_rounds FOREIGN KEY(round_id) REFERENCES rounds (id) ON DELETE CASCADE, 
	CONSTRAINT pk_ballots PRIMARY KEY (id), 
	CONSTRAINT uq_ballots_round_id_player_id UNIQUE (round_id, player_id)
);
CREATE TABLE closed_dms (
	user_id BIGINT NOT NULL, 
	since DATETIME NOT NULL, 
	CONSTRAINT pk_closed_dms PRIMARY KEY (user_id)
);
CREATE TABLE cv_cards (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	name VARCHAR(100) NOT NULL, 
	kind VARCHAR(16) NOT NULL, 
	controller_id INTEGER, 
	owner_id INTEGER, 
	vote INTEGER NOT NULL, 
	pallarch BOOLEAN NOT NULL, 
	morality VARCHAR(32), 
	penalty VARCHAR(200), 
	at VARCHAR(100), 
	readied BOOLEAN NOT NULL, 
	on_map BOOLEAN NOT NULL, 
	suppressed BOOLEAN NOT NULL, 
	bonus INTEGER NOT NULL, 
	sovereignty VARCHAR(16), 
	faces JSON NOT NULL, 
	face VARCHAR(32), 
	CONSTRAINT fk_cv_cards_controller_id_players FOREIGN KEY(controller_id) REFERENCES players (id) ON DELETE SET NULL, 
	CONSTRAINT fk_cv_cards_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT fk_cv_cards_owner_id_players FOREIGN KEY(owner_id) REFERENCES players (id) ON DELETE SET NULL, 
	CONSTRAINT pk_cv_cards PRIMARY KEY (id), 
	CONSTRAINT uq_cv_cards_game_id_name UNIQUE (game_id, name)
);
CREATE TABLE cv_factors (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	name VARCHAR(32) NOT NULL, 
	value INTEGER NOT NULL, 
	CONSTRAINT fk_cv_factors_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT pk_cv_factors PRIMARY KEY (id), 
	CONSTRAINT uq_cv_factors_game_id_name UNIQUE (game_id, name)
);
CREATE TABLE cv_motions (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	number INTEGER NOT NULL, 
	kind VARCHAR(16) NOT NULL, 
	name VARCHAR(100) NOT NULL, 
	mover_id INTEGER NOT NULL, 
	convocant VARCHAR(100) NOT NULL, 
	route VARCHAR(16) NOT NULL, 
	details JSON NOT NULL, 
	turn INTEGER NOT NULL, 
	status VARCHAR(16) NOT NULL, 
	offer JSON NOT NULL, 
	offer_to INTEGER, 
	offer_deadline DATETIME, 
	seconder_id INTEGER, 
	seconder VARCHAR(100), 
	outcome JSON, 
	statute_id INTEGER, 
	moved_at DATETIME NOT NULL, 
	resolved_at DATETIME, 
	CONSTRAINT fk_cv_motions_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT fk_cv_motions_mover_id_players FOREIGN KEY(mover_id) REFERENCES players (id) ON DELETE CASCADE, 
	CONSTRAINT fk_cv_motions_offer_to_players FOREIGN KEY(offer_to) REFERENCES players (id) ON DELETE SET NULL, 
	CONSTRAINT fk_cv_motions_seconder_id_players FOREIGN KEY(seconder_id) REFERENCES players (id) ON DELETE SET NULL, 
	CONSTRAINT fk_cv_motions_statute_id_cv_statutes FOREIGN KEY(statute_id) REFERENCES cv_statutes (id) ON DELETE SET NULL, 
	CONSTRAINT pk_cv_motions PRIMARY KEY (id), 
	CONSTRAINT uq_cv_motions_game_id_number UNIQUE (game_id, number)
);
CREATE TABLE cv_players (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	player_id INTEGER NOT NULL, 
	sovereignty VARCHAR(16) NOT NULL, 
	turn_order INTEGER NOT NULL, 
	directive VARCHAR(32), 
	homeworld VARCHAR(100), 
	pool INTEGER NOT NULL, 
	"temp" INTEGER NOT NULL, 
	repealed_turn INTEGER, 
	CONSTRAINT fk_cv_players_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT fk_cv_players_player_id_players FOREIGN KEY(player_id) REFERENCES players (id) ON DELETE CASCADE, 
	CONSTRAINT pk_cv_players PRIMARY KEY (id), 
	CONSTRAINT uq_cv_players_player_id UNIQUE (player_id)
);
CREATE TABLE cv_statutes (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	name VARCHAR(100) NOT NULL, 
	controller_id INTEGER NOT NULL, 
	owner_id INTEGER NOT NULL, 
	section INTEGER NOT NULL, 
	sections JSON NOT NULL, 
	changed_turn INTEGER, 
	status VARCHAR(16) NOT NULL, 
	declared_by VARCHAR(100) NOT NULL, 
	seat VARCHAR(100) NOT NULL, 
	cost VARCHAR(200), 
	declared_at DATETIME NOT NULL, 
	declared_turn INTEGER NOT NULL, 
	ended_at DATETIME, 
	ended_turn INTEGER, 
	CONSTRAINT fk_cv_statutes_controller_id_players FOREIGN KEY(controller_id) REFERENCES players (id) ON DELETE CASCADE, 
	CONSTRAINT fk_cv_statutes_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT fk_cv_statutes_owner_id_players FOREIGN KEY(owner_id) REFERENCES players (id) ON DELETE CASCADE, 
	CONSTRAINT pk_cv_statutes PRIMARY KEY (id)
);
CREATE TABLE cv_turns (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	active_id INTEGER, 
	phase VARCHAR(16), 
	turn INTEGER NOT NULL, 
	CONSTRAINT fk_cv_turns_active_id_players FOREIGN KEY(active_id) REFERENCES players (id) ON DELETE SET NULL, 
	CONSTRAINT fk_cv_turns_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT pk_cv_turns PRIMARY KEY (id), 
	CONSTRAINT uq_cv_turns_game_id UNIQUE (game_id)
);
CREATE TABLE dice_rolls (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	scope INTEGER NOT NULL, 
	purpose VARCHAR(200) NOT NULL, 
	"index" INTEGER NOT NULL, 
	sides INTEGER NOT NULL, 
	face INTEGER NOT NULL, 
	sealed VARCHAR(64), 
	CONSTRAINT fk_dice_rolls_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT pk_dice_rolls PRIMARY KEY (id), 
	CONSTRAINT uq_dice_rolls_game_id_scope_purpose_index UNIQUE (game_id, scope, purpose, "index")
);
CREATE TABLE dice_seeds (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	scope INTEGER NOT NULL, 
	seed VARCHAR(64) NOT NULL, 
	salt VARCHAR(64) NOT NULL, 
	commitment VARCHAR(64) NOT NULL, 
	created_at DATETIME NOT NULL, 
	revealed_at DATETIME, 
	CONSTRAINT fk_dice_seeds_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT pk_dice_seeds PRIMARY KEY (id), 
	CONSTRAINT uq_dice_seeds_game_id_scope UNIQUE (game_id, scope)
);
CREATE TABLE dm_channels (
	user_id BIGINT NOT NULL, 
	channel_id BIGINT NOT NULL, 
	CONSTRAINT pk_dm_channels PRIMARY KEY (user_id)
);
CREATE TABLE embargoes (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	by_id INTEGER NOT NULL, 
	on_id INTEGER NOT NULL, 
	since DATETIME NOT NULL, 
	CONSTRAINT fk_embargoes_by_id_players FOREIGN KEY(by_id) REFERENCES players (id) ON DELETE CASCADE, 
	CONSTRAINT fk_embargoes_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT fk_embargoes_on_id_players FOREIGN KEY(on_id) REFERENCES players (id) ON DELETE CASCADE, 
	CONSTRAINT pk_embargoes PRIMARY KEY (id), 
	CONSTRAINT uq_embargoes_game_id_by_id_on_id UNIQUE (game_id, by_id, on_id)
);
CREATE TABLE events (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	seq INTEGER NOT NULL, 
	kind VARCHAR(48) NOT NULL, 
	actor BIGINT, 
	payload JSON NOT NULL, 
	source_id VARCHAR(64), 
	at DATETIME NOT NULL, 
	CONSTRAINT fk_events_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT pk_events PRIMARY KEY (id), 
	CONSTRAINT uq_events_game_id_seq UNIQUE (game_id, seq), 
	CONSTRAINT uq_events_source_id UNIQUE (source_id)
);
CREATE TABLE final_scores (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	player_id INTEGER NOT NULL, 
	categories JSON NOT NULL, 
	singular JSON NOT NULL, 
	goals INTEGER NOT NULL, 
	prestige INTEGER NOT NULL, 
	total INTEGER NOT NULL, 
	place INTEGER NOT NULL, 
	title VARCHAR(64), 
	CONSTRAINT fk_final_scores_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT fk_final_scores_player_id_players FOREIGN KEY(player_id) REFERENCES players (id) ON DELETE CASCADE, 
	CONSTRAINT pk_final_scores PRIMARY KEY (id), 
	CONSTRAINT uq_final_scores_game_id_player_id UNIQUE (game_id, player_id)
);
CREATE TABLE game_marks (
	game_id INTEGER NOT NULL, 
	"key" VARCHAR(48) NOT NULL, 
	value VARCHAR(200) NOT NULL, 
	at DATETIME NOT NULL, 
	CONSTRAINT fk_game_marks_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT pk_game_marks PRIMARY KEY (game_id, "key")
);
CREATE TABLE games (
	id INTEGER NOT NULL, 
	guild_id BIGINT NOT NULL, 
	channel_id BIGINT NOT NULL, 
	name VARCHAR(100) NOT NULL, 
	ruleset VARCHAR(32) NOT NULL, 
	settings JSON NOT NULL, 
	moderator_role_id BIGINT, 
	current_round INTEGER NOT NULL, 
	last_seq INTEGER NOT NULL, 
	created_at DATETIME NOT NULL, status VARCHAR(16) DEFAULT 'active' NOT NULL, ended_at DATETIME, 
	CONSTRAINT pk_games PRIMARY KEY (id), 
	CONSTRAINT uq_games_channel_id UNIQUE (channel_id), 
	CONSTRAINT uq_games_guild_id_name UNIQUE (guild_id, name)
);
CREATE TABLE holdings (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	player_id INTEGER NOT NULL, 
	kind VARCHAR(16) NOT NULL, 
	name VARCHAR(100) NOT NULL, 
	grade VARCHAR(16) NOT NULL, 
	votes INTEGER NOT NULL, 
	homeworld BOOLEAN NOT NULL, 
	CONSTRAINT fk_holdings_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT fk_holdings_player_id_players FOREIGN KEY(player_id) REFERENCES players (id) ON DELETE CASCADE, 
	CONSTRAINT pk_holdings PRIMARY KEY (id), 
	CONSTRAINT uq_holdings_game_id_name UNIQUE (game_id, name)
);
CREATE TABLE kanly (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	first_id INTEGER NOT NULL, 
	second_id INTEGER NOT NULL, 
	since DATETIME NOT NULL, 
	CONSTRAINT fk_kanly_first_id_players FOREIGN KEY(first_id) REFERENCES players (id) ON DELETE CASCADE, 
	CONSTRAINT fk_kanly_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT fk_kanly_second_id_players FOREIGN KEY(second_id) REFERENCES players (id) ON DELETE CASCADE, 
	CONSTRAINT pk_kanly PRIMARY KEY (id), 
	CONSTRAINT uq_kanly_game_id_first_id_second_id UNIQUE (game_id, first_id, second_id)
);
CREATE TABLE kanly_transit (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	owner_id INTEGER NOT NULL, 
	target_id INTEGER NOT NULL, 
	guild_fee INTEGER NOT NULL, 
	description VARCHAR(200) NOT NULL, 
	returned BOOLEAN NOT NULL, 
	CONSTRAINT fk_kanly_transit_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT fk_kanly_transit_owner_id_players FOREIGN KEY(owner_id) REFERENCES players (id) ON DELETE CASCADE, 
	CONSTRAINT fk_kanly_transit_target_id_players FOREIGN KEY(target_id) REFERENCES players (id) ON DELETE CASCADE, 
	CONSTRAINT pk_kanly_transit PRIMARY KEY (id)
);
CREATE TABLE leases (
	name VARCHAR(64) NOT NULL, 
	holder VARCHAR(200) NOT NULL, 
	expires_at DATETIME NOT NULL, 
	CONSTRAINT pk_leases PRIMARY KEY (name)
);
CREATE TABLE myl_candidates (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	faction_id INTEGER NOT NULL, 
	name VARCHAR(100) NOT NULL, 
	party VARCHAR(16) NOT NULL, 
	charisma INTEGER NOT NULL, 
	running BOOLEAN NOT NULL, 
	discarded BOOLEAN NOT NULL, 
	CONSTRAINT fk_myl_candidates_faction_id_myl_factions FOREIGN KEY(faction_id) REFERENCES myl_factions (id) ON DELETE CASCADE, 
	CONSTRAINT fk_myl_candidates_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT pk_myl_candidates PRIMARY KEY (id), 
	CONSTRAINT uq_myl_candidates_game_id_name UNIQUE (game_id, name)
);
CREATE TABLE myl_chains (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	number INTEGER NOT NULL, 
	turn INTEGER NOT NULL, 
	waiting VARCHAR(16) NOT NULL, 
	state JSON NOT NULL, 
	deadline DATETIME, 
	opened_at DATETIME NOT NULL, 
	closed_at DATETIME, offered_at DATETIME, 
	CONSTRAINT fk_myl_chains_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT pk_myl_chains PRIMARY KEY (id), 
	CONSTRAINT uq_myl_chains_game_id_number UNIQUE (game_id, number)
);
CREATE TABLE myl_choices (
	id INTEGER NOT NULL, 
	election_id INTEGER NOT NULL, 
	faction_id INTEGER NOT NULL, 
	choice VARCHAR(100) NOT NULL, 
	received_at DATETIME NOT NULL, 
	source_id VARCHAR(64), 
	CONSTRAINT fk_myl_choices_election_id_myl_elections FOREIGN KEY(election_id) REFERENCES myl_elections (id) ON DELETE CASCADE, 
	CONSTRAINT fk_myl_choices_faction_id_myl_factions FOREIGN KEY(faction_id) REFERENCES myl_factions (id) ON DELETE CASCADE, 
	CONSTRAINT pk_myl_choices PRIMARY KEY (id), 
	CONSTRAINT uq_myl_choices_election_id_faction_id UNIQUE (election_id, faction_id)
);
CREATE TABLE myl_contributions (
	id INTEGER NOT NULL, 
	chain_id INTEGER NOT NULL, 
	attempt INTEGER NOT NULL, 
	faction_id INTEGER NOT NULL, 
	to_crt INTEGER DEFAULT '0' NOT NULL, 
	to_vanguard INTEGER DEFAULT '0' NOT NULL, 
	received_at DATETIME NOT NULL, 
	source_id VARCHAR(64), 
	CONSTRAINT fk_myl_contributions_chain_id_myl_chains FOREIGN KEY(chain_id) REFERENCES myl_chains (id) ON DELETE CASCADE, 
	CONSTRAINT fk_myl_contributions_faction_id_myl_factions FOREIGN KEY(faction_id) REFERENCES myl_factions (id) ON DELETE CASCADE, 
	CONSTRAINT pk_myl_contributions PRIMARY KEY (id), 
	CONSTRAINT uq_myl_contributions_chain_id_attempt_faction_id UNIQUE (chain_id, attempt, faction_id)
);
CREATE TABLE myl_elections (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	turn INTEGER NOT NULL, 
	stage VARCHAR(16) NOT NULL, 
	status VARCHAR(16) NOT NULL, 
	opened_at DATETIME NOT NULL, 
	deadline DATETIME, 
	closed_at DATETIME, 
	result JSON, 
	CONSTRAINT fk_myl_elections_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT pk_myl_elections PRIMARY KEY (id), 
	CONSTRAINT uq_myl_elections_game_id_turn_stage UNIQUE (game_id, turn, stage)
);
CREATE TABLE myl_factions (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	player_id INTEGER NOT NULL, 
	code VARCHAR(2) NOT NULL, 
	party VARCHAR(16) NOT NULL, 
	vp INTEGER DEFAULT '0' NOT NULL, 
	treasury INTEGER DEFAULT '0' NOT NULL, 
	in_play BOOLEAN NOT NULL, 
	realigned_turn INTEGER, 
	per JSON NOT NULL, 
	entered JSON NOT NULL, 
	CONSTRAINT fk_myl_factions_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT fk_myl_factions_player_id_players FOREIGN KEY(player_id) REFERENCES players (id) ON DELETE CASCADE, 
	CONSTRAINT pk_myl_factions PRIMARY KEY (id), 
	CONSTRAINT uq_myl_factions_game_id_code UNIQUE (game_id, code), 
	CONSTRAINT uq_myl_factions_player_id UNIQUE (player_id)
);
CREATE TABLE myl_government (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	turn INTEGER NOT NULL, 
	approval INTEGER, 
	fervor INTEGER DEFAULT '0' NOT NULL, 
	president VARCHAR(2), 
	monopolies INTEGER DEFAULT '0' NOT NULL, 
	income_tax INTEGER, 
	faction_taxes INTEGER DEFAULT '0' NOT NULL, 
	tariffs INTEGER DEFAULT '0' NOT NULL, 
	subsidies INTEGER DEFAULT '0' NOT NULL, 
	pensions INTEGER DEFAULT '0' NOT NULL, 
	wars INTEGER DEFAULT '0' NOT NULL, 
	unfunded_last_turn INTEGER DEFAULT '0' NOT NULL, 
	election_started BOOLEAN NOT NULL, 
	business_closed BOOLEAN NOT NULL, 
	snapshot JSON NOT NULL, 
	CONSTRAINT fk_myl_government_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT pk_myl_government PRIMARY KEY (id), 
	CONSTRAINT uq_myl_government_game_id UNIQUE (game_id)
);
CREATE TABLE myl_happenings (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	turn INTEGER NOT NULL, 
	what VARCHAR(32) NOT NULL, 
	amount INTEGER NOT NULL, 
	note VARCHAR(200), 
	"before" JSON NOT NULL, 
	at DATETIME NOT NULL, 
	CONSTRAINT fk_myl_happenings_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT pk_myl_happenings PRIMARY KEY (id)
);
CREATE TABLE myl_history (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	turn INTEGER NOT NULL, 
	measure VARCHAR(16) NOT NULL, 
	cause VARCHAR(200) NOT NULL, 
	delta INTEGER NOT NULL, 
	value INTEGER NOT NULL, 
	at DATETIME NOT NULL, event_seq INTEGER, 
	CONSTRAINT fk_myl_history_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT pk_myl_history PRIMARY KEY (id)
);
CREATE TABLE myl_territories (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	name VARCHAR(100) NOT NULL, 
	ports INTEGER DEFAULT '0' NOT NULL, 
	cities INTEGER DEFAULT '0' NOT NULL, 
	temples INTEGER DEFAULT '0' NOT NULL, 
	villages INTEGER DEFAULT '0' NOT NULL, 
	names JSON NOT NULL, 
	CONSTRAINT fk_myl_territories_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT pk_myl_territories PRIMARY KEY (id), 
	CONSTRAINT uq_myl_territories_game_id_name UNIQUE (game_id, name)
);
CREATE TABLE myl_units (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	name VARCHAR(100) NOT NULL, 
	territory VARCHAR(100) NOT NULL, 
	maintenance INTEGER NOT NULL, 
	cost INTEGER NOT NULL, 
	status VARCHAR(16) NOT NULL, 
	CONSTRAINT fk_myl_units_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT pk_myl_units PRIMARY KEY (id), 
	CONSTRAINT uq_myl_units_game_id_name UNIQUE (game_id, name)
);
CREATE TABLE offices (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	office VARCHAR(32) NOT NULL, 
	player_id INTEGER, 
	since DATETIME NOT NULL, 
	CONSTRAINT fk_offices_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT fk_offices_player_id_players FOREIGN KEY(player_id) REFERENCES players (id) ON DELETE SET NULL, 
	CONSTRAINT pk_offices PRIMARY KEY (id), 
	CONSTRAINT uq_offices_game_id_office UNIQUE (game_id, office)
);
CREATE TABLE owed_messages (
	id INTEGER NOT NULL, 
	lane VARCHAR(160) NOT NULL, 
	channel_id BIGINT, 
	priority INTEGER NOT NULL, 
	nonce VARCHAR(25) NOT NULL, 
	coalesce VARCHAR(160), 
	source_id VARCHAR(64), 
	body JSON NOT NULL, 
	owed_at DATETIME NOT NULL, 
	attempts INTEGER NOT NULL, 
	outcome VARCHAR(16), 
	done_at DATETIME, 
	CONSTRAINT pk_owed_messages PRIMARY KEY (id), 
	CONSTRAINT uq_owed_messages_nonce UNIQUE (nonce)
);
CREATE TABLE pending_dms (
	id INTEGER NOT NULL, 
	user_id BIGINT NOT NULL, 
	source_id VARCHAR(64), 
	text TEXT NOT NULL, 
	sent_at DATETIME NOT NULL, 
	CONSTRAINT pk_pending_dms PRIMARY KEY (id), 
	CONSTRAINT uq_pending_dms_source_id UNIQUE (source_id)
);
CREATE TABLE perks (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	round_number INTEGER NOT NULL, 
	perk VARCHAR(32) NOT NULL, 
	player_id INTEGER NOT NULL, 
	used BOOLEAN NOT NULL, 
	CONSTRAINT fk_perks_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT fk_perks_player_id_players FOREIGN KEY(player_id) REFERENCES players (id) ON DELETE CASCADE, 
	CONSTRAINT pk_perks PRIMARY KEY (id), 
	CONSTRAINT uq_perks_game_id_round_number_perk UNIQUE (game_id, round_number, perk)
);
CREATE TABLE player_vote_supports (
	id INTEGER NOT NULL, 
	vote_id INTEGER NOT NULL, 
	player_id INTEGER NOT NULL, 
	at DATETIME NOT NULL, 
	source_id VARCHAR(64), 
	CONSTRAINT fk_player_vote_supports_player_id_players FOREIGN KEY(player_id) REFERENCES players (id) ON DELETE CASCADE, 
	CONSTRAINT fk_player_vote_supports_vote_id_player_votes FOREIGN KEY(vote_id) REFERENCES player_votes (id) ON DELETE CASCADE, 
	CONSTRAINT pk_player_vote_supports PRIMARY KEY (id), 
	CONSTRAINT uq_player_vote_supports_vote_id_player_id UNIQUE (vote_id, player_id)
);
CREATE TABLE player_votes (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	round_number INTEGER NOT NULL, 
	subject VARCHAR(32) NOT NULL, 
	target VARCHAR(64) NOT NULL, 
	details JSON NOT NULL, 
	status VARCHAR(16) NOT NULL, 
	needed INTEGER, 
	opened_at DATETIME NOT NULL, 
	passed_at DATETIME, 
	decided_at DATETIME, 
	decided_by BIGINT, 
	thread_id BIGINT, 
	CONSTRAINT fk_player_votes_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT pk_player_votes PRIMARY KEY (id), 
	CONSTRAINT uq_player_votes_game_id_round_number_subject_target UNIQUE (game_id, round_number, subject, target)
);
CREATE TABLE "players" (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	user_id BIGINT NOT NULL, 
	name VARCHAR(100) NOT NULL, 
	faction VARCHAR(100), 
	diplomacy INTEGER NOT NULL, 
	command INTEGER NOT NULL, 
	intrigue INTEGER NOT NULL, 
	roll INTEGER NOT NULL, 
	diplomacy_max INTEGER NOT NULL, 
	intrigue_max INTEGER NOT NULL, 
	misc_votes INTEGER NOT NULL, 
	active BOOLEAN NOT NULL, 
	removed BOOLEAN DEFAULT 0 NOT NULL, 
	CONSTRAINT fk_players_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT pk_players PRIMARY KEY (id), 
	CONSTRAINT uq_players_game_id_user_id UNIQUE (game_id, user_id)
);
CREATE TABLE posted_messages (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	"key" VARCHAR(100) NOT NULL, 
	channel_id BIGINT NOT NULL, 
	message_id BIGINT NOT NULL, 
	CONSTRAINT fk_posted_messages_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT pk_posted_messages PRIMARY KEY (id), 
	CONSTRAINT uq_posted_messages_game_id_key UNIQUE (game_id, "key")
);
CREATE TABLE prestige_awards (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	player_id INTEGER NOT NULL, 
	vp INTEGER NOT NULL, 
	reason VARCHAR(200) NOT NULL, 
	at DATETIME NOT NULL, 
	awarded_by BIGINT, 
	CONSTRAINT fk_prestige_awards_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT fk_prestige_awards_player_id_players FOREIGN KEY(player_id) REFERENCES players (id) ON DELETE CASCADE, 
	CONSTRAINT pk_prestige_awards PRIMARY KEY (id)
);
CREATE TABLE processes (
	token VARCHAR(32) NOT NULL, 
	instance VARCHAR(200) NOT NULL, 
	host VARCHAR(200) NOT NULL, 
	pid INTEGER NOT NULL, 
	shard_count INTEGER, 
	shard_ids TEXT, 
	started_at DATETIME NOT NULL, 
	seen_at DATETIME NOT NULL, 
	CONSTRAINT pk_processes PRIMARY KEY (token)
);
CREATE TABLE rounds (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	number INTEGER NOT NULL, 
	crisis TEXT NOT NULL, 
	status VARCHAR(16) NOT NULL, 
	opened_at DATETIME NOT NULL, 
	deadline DATETIME, 
	closed_at DATETIME, 
	result JSON, paused_left INTEGER, 
	CONSTRAINT fk_rounds_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT pk_rounds PRIMARY KEY (id), 
	CONSTRAINT uq_rounds_game_id_number UNIQUE (game_id, number)
);
CREATE TABLE temp_factions (
	id INTEGER NOT NULL, 
	round_id INTEGER NOT NULL, 
	name VARCHAR(100) NOT NULL, 
	votes INTEGER NOT NULL, 
	stance VARCHAR(16) NOT NULL, 
	"table" VARCHAR(200), 
	roll INTEGER, 
	vote VARCHAR(16), 
	CONSTRAINT fk_temp_factions_round_id_rounds FOREIGN KEY(round_id) REFERENCES rounds (id) ON DELETE CASCADE, 
	CONSTRAINT pk_temp_factions PRIMARY KEY (id), 
	CONSTRAINT uq_temp_factions_round_id_name UNIQUE (round_id, name)
);
CREATE TABLE transfers (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	round_number INTEGER NOT NULL, 
	from_id INTEGER NOT NULL, 
	to_id INTEGER, 
	recipient VARCHAR(100) NOT NULL, 
	kind VARCHAR(16) NOT NULL, 
	amount INTEGER, 
	item VARCHAR(200), 
	at DATETIME NOT NULL, 
	recorded_by BIGINT, 
	corrects_id INTEGER, 
	note VARCHAR(200), 
	source_id VARCHAR(64), 
	CONSTRAINT fk_transfers_corrects_id_transfers FOREIGN KEY(corrects_id) REFERENCES transfers (id), 
	CONSTRAINT fk_transfers_from_id_players FOREIGN KEY(from_id) REFERENCES players (id) ON DELETE CASCADE, 
	CONSTRAINT fk_transfers_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT fk_transfers_to_id_players FOREIGN KEY(to_id) REFERENCES players (id) ON DELETE SET NULL, 
	CONSTRAINT pk_transfers PRIMARY KEY (id)
);
CREATE TABLE victory (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	percentages JSON NOT NULL, 
	weights JSON NOT NULL, 
	luxuries JSON NOT NULL, 
	majority_player_id INTEGER, 
	ended_by VARCHAR(16), 
	chancellor_id INTEGER, 
	penalty INTEGER DEFAULT '0' NOT NULL, 
	pot VARCHAR(32), 
	unawarded JSON, 
	scored_at DATETIME, 
	CONSTRAINT fk_victory_chancellor_id_players FOREIGN KEY(chancellor_id) REFERENCES players (id) ON DELETE SET NULL, 
	CONSTRAINT fk_victory_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT fk_victory_majority_player_id_players FOREIGN KEY(majority_player_id) REFERENCES players (id) ON DELETE SET NULL, 
	CONSTRAINT pk_victory PRIMARY KEY (id), 
	CONSTRAINT uq_victory_game_id UNIQUE (game_id)
);
CREATE TABLE victory_goals (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	player_id INTEGER NOT NULL, 
	number INTEGER NOT NULL, 
	description VARCHAR(300) NOT NULL, 
	vp INTEGER NOT NULL, 
	achieved BOOLEAN NOT NULL, 
	added_at DATETIME NOT NULL, 
	achieved_at DATETIME, 
	CONSTRAINT fk_victory_goals_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT fk_victory_goals_player_id_players FOREIGN KEY(player_id) REFERENCES players (id) ON DELETE CASCADE, 
	CONSTRAINT pk_victory_goals PRIMARY KEY (id), 
	CONSTRAINT uq_victory_goals_player_id_number UNIQUE (player_id, number)
);
CREATE TABLE victory_holdings (
	id INTEGER NOT NULL, 
	game_id INTEGER NOT NULL, 
	player_id INTEGER NOT NULL, 
	militia INTEGER DEFAULT '0' NOT NULL, 
	standard INTEGER DEFAULT '0' NOT NULL, 
	upgraded INTEGER DEFAULT '0' NOT NULL, 
	elite INTEGER DEFAULT '0' NOT NULL, 
	weapons_factory INTEGER DEFAULT '0' NOT NULL, 
	agricultural_fief INTEGER DEFAULT '0' NOT NULL, 
	manufacturing_facility INTEGER DEFAULT '0' NOT NULL, 
	space_port INTEGER DEFAULT '0' NOT NULL, 
	gem_mine INTEGER DEFAULT '0' NOT NULL, 
	ore_mine INTEGER DEFAULT '0' NOT NULL, 
	spice INTEGER DEFAULT '0' NOT NULL, 
	soostone INTEGER DEFAULT '0' NOT NULL, 
	sapho_juice INTEGER DEFAULT '0' NOT NULL, 
	semuta INTEGER DEFAULT '0' NOT NULL, 
	income INTEGER DEFAULT '0' NOT NULL, 
	stock INTEGER DEFAULT '0' NOT NULL, 
	wealth INTEGER DEFAULT '0' NOT NULL, 
	heroes INTEGER DEFAULT '0' NOT NULL, 
	seizures INTEGER DEFAULT '0' NOT NULL, 
	raids INTEGER DEFAULT '0' NOT NULL, 
	house_raids INTEGER DEFAULT '0' NOT NULL, 
	assassinations INTEGER DEFAULT '0' NOT NULL, 
	electors_bribed INTEGER DEFAULT '0' NOT NULL, 
	troop_movements INTEGER DEFAULT '0' NOT NULL, 
	CONSTRAINT fk_victory_holdings_game_id_games FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE, 
	CONSTRAINT fk_victory_holdings_player_id_players FOREIGN KEY(player_id) REFERENCES players (id) ON DELETE CASCADE, 
	CONSTRAINT pk_victory_holdings PRIMARY KEY (id), 
	CONSTRAINT uq_victory_holdings_player_id UNIQUE (player_id)
);
CREATE INDEX ix_ag_elections_status_closes ON ag_elections (status, closes_at);
CREATE INDEX ix_cv_motions_status_offer_deadline ON cv_motions (status, offer_deadline);
CREATE INDEX ix_cv_players_game_id ON cv_players (game_id);
CREATE INDEX ix_cv_statutes_game_id ON cv_statutes (game_id);
CREATE INDEX ix_holdings_player_id ON holdings (player_id);
CREATE INDEX ix_myl_chains_waiting_deadline ON myl_chains (waiting, deadline);
CREATE INDEX ix_myl_elections_status_deadline ON myl_elections (status, deadline);
CREATE INDEX ix_myl_happenings_game_id ON myl_happenings (game_id);
CREATE INDEX ix_myl_history_game_id ON myl_history (game_id);
CREATE INDEX ix_owed_messages_coalesce ON owed_messages (coalesce);
CREATE INDEX ix_owed_messages_source_id ON owed_messages (source_id);
CREATE INDEX ix_owed_messages_waiting ON owed_messages (outcome, priority, id);
CREATE INDEX ix_players_user_id ON players (user_id);
CREATE INDEX ix_prestige_awards_game_id ON prestige_awards (game_id);
CREATE INDEX ix_rounds_status_deadline ON rounds (status, deadline);
CREATE INDEX ix_transfers_game_from_round ON transfers (game_id, from_id, round_number);
INSERT INTO "alembic_version" VALUES('0018');
