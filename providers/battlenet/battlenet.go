package battlenet

// The Battle.net issuers; set one as the Issuer option.
const (
	IssuerGlobal = "https://oauth.battle.net"           // all regions but China
	IssuerChina  = "https://oauth.battlenet.com.cn"     // China
	IssuerCN     = "https://www.battlenet.com.cn/oauth" // China, older host
	IssuerUS     = "https://us.battle.net/oauth"        // Americas, regional host
	IssuerEU     = "https://eu.battle.net/oauth"        // Europe, regional host
	IssuerKR     = "https://kr.battle.net/oauth"        // Korea, regional host
	IssuerTW     = "https://tw.battle.net/oauth"        // Taiwan, regional host
)
