// Written by `npm run gen` from spec/. Do not edit: change the spec and regenerate.
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
"use strict";
export const startDeviceAuthorization = validate20;
const schema31 = {"$id":"body-startDeviceAuthorization","type":"object","additionalProperties":false,"properties":{"client_id":{"type":"string","maxLength":64,"pattern":"^[\\x20-\\x7e]*$"},"credential_expires_in":{"type":"integer","minimum":60,"maximum":31536000,"description":"Lifetime of the CLI credential, in seconds from when it is issued (default 90 days, at most 365)."}}};
const func1 = require("ajv/dist/runtime/ucs2length").default;
const pattern4 = new RegExp("^[\\x20-\\x7e]*$", "u");

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="body-startDeviceAuthorization" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate20.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
for(const key0 in data){
if(!((key0 === "client_id") || (key0 === "credential_expires_in"))){
const err0 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.client_id !== undefined){
let data0 = data.client_id;
if(typeof data0 === "string"){
if(func1(data0) > 64){
const err1 = {instancePath:instancePath+"/client_id",schemaPath:"#/properties/client_id/maxLength",keyword:"maxLength",params:{limit: 64},message:"must NOT have more than 64 characters"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(!pattern4.test(data0)){
const err2 = {instancePath:instancePath+"/client_id",schemaPath:"#/properties/client_id/pattern",keyword:"pattern",params:{pattern: "^[\\x20-\\x7e]*$"},message:"must match pattern \""+"^[\\x20-\\x7e]*$"+"\""};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
else {
const err3 = {instancePath:instancePath+"/client_id",schemaPath:"#/properties/client_id/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.credential_expires_in !== undefined){
let data1 = data.credential_expires_in;
if(!((typeof data1 == "number") && (!(data1 % 1) && !isNaN(data1)))){
const err4 = {instancePath:instancePath+"/credential_expires_in",schemaPath:"#/properties/credential_expires_in/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(typeof data1 == "number"){
if(data1 > 31536000 || isNaN(data1)){
const err5 = {instancePath:instancePath+"/credential_expires_in",schemaPath:"#/properties/credential_expires_in/maximum",keyword:"maximum",params:{comparison: "<=", limit: 31536000},message:"must be <= 31536000"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(data1 < 60 || isNaN(data1)){
const err6 = {instancePath:instancePath+"/credential_expires_in",schemaPath:"#/properties/credential_expires_in/minimum",keyword:"minimum",params:{comparison: ">=", limit: 60},message:"must be >= 60"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
}
}
else {
const err7 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

export const exchangeDeviceCode = validate21;
const schema32 = {"$id":"body-exchangeDeviceCode","type":"object","required":["grant_type","device_code"],"additionalProperties":false,"properties":{"grant_type":{"const":"urn:ietf:params:oauth:grant-type:device_code"},"device_code":{"type":"string","minLength":1,"maxLength":200},"client_id":{"type":"string","maxLength":64,"pattern":"^[\\x20-\\x7e]*$"}}};

function validate21(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="body-exchangeDeviceCode" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate21.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.grant_type === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "grant_type"},message:"must have required property '"+"grant_type"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.device_code === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "device_code"},message:"must have required property '"+"device_code"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
for(const key0 in data){
if(!(((key0 === "grant_type") || (key0 === "device_code")) || (key0 === "client_id"))){
const err2 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.grant_type !== undefined){
if("urn:ietf:params:oauth:grant-type:device_code" !== data.grant_type){
const err3 = {instancePath:instancePath+"/grant_type",schemaPath:"#/properties/grant_type/const",keyword:"const",params:{allowedValue: "urn:ietf:params:oauth:grant-type:device_code"},message:"must be equal to constant"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.device_code !== undefined){
let data1 = data.device_code;
if(typeof data1 === "string"){
if(func1(data1) > 200){
const err4 = {instancePath:instancePath+"/device_code",schemaPath:"#/properties/device_code/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(func1(data1) < 1){
const err5 = {instancePath:instancePath+"/device_code",schemaPath:"#/properties/device_code/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
else {
const err6 = {instancePath:instancePath+"/device_code",schemaPath:"#/properties/device_code/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.client_id !== undefined){
let data2 = data.client_id;
if(typeof data2 === "string"){
if(func1(data2) > 64){
const err7 = {instancePath:instancePath+"/client_id",schemaPath:"#/properties/client_id/maxLength",keyword:"maxLength",params:{limit: 64},message:"must NOT have more than 64 characters"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
if(!pattern4.test(data2)){
const err8 = {instancePath:instancePath+"/client_id",schemaPath:"#/properties/client_id/pattern",keyword:"pattern",params:{pattern: "^[\\x20-\\x7e]*$"},message:"must match pattern \""+"^[\\x20-\\x7e]*$"+"\""};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
else {
const err9 = {instancePath:instancePath+"/client_id",schemaPath:"#/properties/client_id/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
}
else {
const err10 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
validate21.errors = vErrors;
return errors === 0;
}
validate21.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

export const submitSignin = validate22;
const schema33 = {"$id":"body-submitSignin","type":"object","required":["user_code","username","password","decision"],"additionalProperties":false,"properties":{"user_code":{"type":"string","maxLength":32,"pattern":"^[\\x20-\\x7e]*$"},"username":{"type":"string","maxLength":128,"pattern":"^[^\\p{Cc}\\p{Cs}]*$"},"password":{"type":"string","maxLength":256},"decision":{"enum":["approve","deny"]}}};
const pattern7 = new RegExp("^[^\\p{Cc}\\p{Cs}]*$", "u");

function validate22(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="body-submitSignin" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate22.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.user_code === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "user_code"},message:"must have required property '"+"user_code"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.username === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "username"},message:"must have required property '"+"username"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.password === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "password"},message:"must have required property '"+"password"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.decision === undefined){
const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "decision"},message:"must have required property '"+"decision"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
for(const key0 in data){
if(!((((key0 === "user_code") || (key0 === "username")) || (key0 === "password")) || (key0 === "decision"))){
const err4 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.user_code !== undefined){
let data0 = data.user_code;
if(typeof data0 === "string"){
if(func1(data0) > 32){
const err5 = {instancePath:instancePath+"/user_code",schemaPath:"#/properties/user_code/maxLength",keyword:"maxLength",params:{limit: 32},message:"must NOT have more than 32 characters"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(!pattern4.test(data0)){
const err6 = {instancePath:instancePath+"/user_code",schemaPath:"#/properties/user_code/pattern",keyword:"pattern",params:{pattern: "^[\\x20-\\x7e]*$"},message:"must match pattern \""+"^[\\x20-\\x7e]*$"+"\""};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
else {
const err7 = {instancePath:instancePath+"/user_code",schemaPath:"#/properties/user_code/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.username !== undefined){
let data1 = data.username;
if(typeof data1 === "string"){
if(func1(data1) > 128){
const err8 = {instancePath:instancePath+"/username",schemaPath:"#/properties/username/maxLength",keyword:"maxLength",params:{limit: 128},message:"must NOT have more than 128 characters"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
if(!pattern7.test(data1)){
const err9 = {instancePath:instancePath+"/username",schemaPath:"#/properties/username/pattern",keyword:"pattern",params:{pattern: "^[^\\p{Cc}\\p{Cs}]*$"},message:"must match pattern \""+"^[^\\p{Cc}\\p{Cs}]*$"+"\""};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
else {
const err10 = {instancePath:instancePath+"/username",schemaPath:"#/properties/username/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data.password !== undefined){
let data2 = data.password;
if(typeof data2 === "string"){
if(func1(data2) > 256){
const err11 = {instancePath:instancePath+"/password",schemaPath:"#/properties/password/maxLength",keyword:"maxLength",params:{limit: 256},message:"must NOT have more than 256 characters"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
else {
const err12 = {instancePath:instancePath+"/password",schemaPath:"#/properties/password/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data.decision !== undefined){
let data3 = data.decision;
if(!((data3 === "approve") || (data3 === "deny"))){
const err13 = {instancePath:instancePath+"/decision",schemaPath:"#/properties/decision/enum",keyword:"enum",params:{allowedValues: schema33.properties.decision.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
}
else {
const err14 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
validate22.errors = vErrors;
return errors === 0;
}
validate22.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

export const registerOAuthClient = validate23;
const schema34 = {"$id":"body-registerOAuthClient","type":"object","description":"RFC 7591 client metadata; redirect_uris is required."};

function validate23(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="body-registerOAuthClient" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate23.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(!(data && typeof data == "object" && !Array.isArray(data))){
const err0 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
validate23.errors = vErrors;
return errors === 0;
}
validate23.evaluated = {"dynamicProps":false,"dynamicItems":false};

export const submitAuthorization = validate24;
const schema35 = {"$id":"body-submitAuthorization","type":"object","required":["client_id","redirect_uri","code_challenge","resource","csrf","decision"],"additionalProperties":false,"patternProperties":{"^op\\.[0-9]{1,5}$":{"const":"on"}},"properties":{"response_type":{"type":"string","maxLength":64},"client_id":{"type":"string","maxLength":2048},"redirect_uri":{"type":"string","maxLength":2048},"state":{"type":"string","maxLength":2048},"code_challenge":{"type":"string","maxLength":256},"code_challenge_method":{"type":"string","maxLength":64},"resource":{"type":"string","maxLength":2048},"csrf":{"type":"string","maxLength":128},"username":{"type":"string","maxLength":128,"pattern":"^[^\\p{Cc}\\p{Cs}]*$"},"password":{"type":"string","maxLength":256},"lifetime":{"type":"string","maxLength":16},"decision":{"enum":["approve","deny"]}}};
const func8 = Object.prototype.hasOwnProperty;
const pattern8 = new RegExp("^op\\.[0-9]{1,5}$", "u");

function validate24(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="body-submitAuthorization" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate24.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.client_id === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "client_id"},message:"must have required property '"+"client_id"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.redirect_uri === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "redirect_uri"},message:"must have required property '"+"redirect_uri"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.code_challenge === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "code_challenge"},message:"must have required property '"+"code_challenge"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data.resource === undefined){
const err3 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "resource"},message:"must have required property '"+"resource"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data.csrf === undefined){
const err4 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "csrf"},message:"must have required property '"+"csrf"+"'"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data.decision === undefined){
const err5 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "decision"},message:"must have required property '"+"decision"+"'"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
for(const key0 in data){
if(!((func8.call(schema35.properties, key0)) || (pattern8.test(key0)))){
const err6 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.response_type !== undefined){
let data0 = data.response_type;
if(typeof data0 === "string"){
if(func1(data0) > 64){
const err7 = {instancePath:instancePath+"/response_type",schemaPath:"#/properties/response_type/maxLength",keyword:"maxLength",params:{limit: 64},message:"must NOT have more than 64 characters"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
else {
const err8 = {instancePath:instancePath+"/response_type",schemaPath:"#/properties/response_type/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.client_id !== undefined){
let data1 = data.client_id;
if(typeof data1 === "string"){
if(func1(data1) > 2048){
const err9 = {instancePath:instancePath+"/client_id",schemaPath:"#/properties/client_id/maxLength",keyword:"maxLength",params:{limit: 2048},message:"must NOT have more than 2048 characters"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
else {
const err10 = {instancePath:instancePath+"/client_id",schemaPath:"#/properties/client_id/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data.redirect_uri !== undefined){
let data2 = data.redirect_uri;
if(typeof data2 === "string"){
if(func1(data2) > 2048){
const err11 = {instancePath:instancePath+"/redirect_uri",schemaPath:"#/properties/redirect_uri/maxLength",keyword:"maxLength",params:{limit: 2048},message:"must NOT have more than 2048 characters"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
else {
const err12 = {instancePath:instancePath+"/redirect_uri",schemaPath:"#/properties/redirect_uri/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data.state !== undefined){
let data3 = data.state;
if(typeof data3 === "string"){
if(func1(data3) > 2048){
const err13 = {instancePath:instancePath+"/state",schemaPath:"#/properties/state/maxLength",keyword:"maxLength",params:{limit: 2048},message:"must NOT have more than 2048 characters"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
else {
const err14 = {instancePath:instancePath+"/state",schemaPath:"#/properties/state/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data.code_challenge !== undefined){
let data4 = data.code_challenge;
if(typeof data4 === "string"){
if(func1(data4) > 256){
const err15 = {instancePath:instancePath+"/code_challenge",schemaPath:"#/properties/code_challenge/maxLength",keyword:"maxLength",params:{limit: 256},message:"must NOT have more than 256 characters"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
else {
const err16 = {instancePath:instancePath+"/code_challenge",schemaPath:"#/properties/code_challenge/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
if(data.code_challenge_method !== undefined){
let data5 = data.code_challenge_method;
if(typeof data5 === "string"){
if(func1(data5) > 64){
const err17 = {instancePath:instancePath+"/code_challenge_method",schemaPath:"#/properties/code_challenge_method/maxLength",keyword:"maxLength",params:{limit: 64},message:"must NOT have more than 64 characters"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
else {
const err18 = {instancePath:instancePath+"/code_challenge_method",schemaPath:"#/properties/code_challenge_method/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
if(data.resource !== undefined){
let data6 = data.resource;
if(typeof data6 === "string"){
if(func1(data6) > 2048){
const err19 = {instancePath:instancePath+"/resource",schemaPath:"#/properties/resource/maxLength",keyword:"maxLength",params:{limit: 2048},message:"must NOT have more than 2048 characters"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
else {
const err20 = {instancePath:instancePath+"/resource",schemaPath:"#/properties/resource/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
if(data.csrf !== undefined){
let data7 = data.csrf;
if(typeof data7 === "string"){
if(func1(data7) > 128){
const err21 = {instancePath:instancePath+"/csrf",schemaPath:"#/properties/csrf/maxLength",keyword:"maxLength",params:{limit: 128},message:"must NOT have more than 128 characters"};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
else {
const err22 = {instancePath:instancePath+"/csrf",schemaPath:"#/properties/csrf/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
if(data.username !== undefined){
let data8 = data.username;
if(typeof data8 === "string"){
if(func1(data8) > 128){
const err23 = {instancePath:instancePath+"/username",schemaPath:"#/properties/username/maxLength",keyword:"maxLength",params:{limit: 128},message:"must NOT have more than 128 characters"};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
if(!pattern7.test(data8)){
const err24 = {instancePath:instancePath+"/username",schemaPath:"#/properties/username/pattern",keyword:"pattern",params:{pattern: "^[^\\p{Cc}\\p{Cs}]*$"},message:"must match pattern \""+"^[^\\p{Cc}\\p{Cs}]*$"+"\""};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
}
else {
const err25 = {instancePath:instancePath+"/username",schemaPath:"#/properties/username/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
if(data.password !== undefined){
let data9 = data.password;
if(typeof data9 === "string"){
if(func1(data9) > 256){
const err26 = {instancePath:instancePath+"/password",schemaPath:"#/properties/password/maxLength",keyword:"maxLength",params:{limit: 256},message:"must NOT have more than 256 characters"};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
else {
const err27 = {instancePath:instancePath+"/password",schemaPath:"#/properties/password/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
if(data.lifetime !== undefined){
let data10 = data.lifetime;
if(typeof data10 === "string"){
if(func1(data10) > 16){
const err28 = {instancePath:instancePath+"/lifetime",schemaPath:"#/properties/lifetime/maxLength",keyword:"maxLength",params:{limit: 16},message:"must NOT have more than 16 characters"};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
}
else {
const err29 = {instancePath:instancePath+"/lifetime",schemaPath:"#/properties/lifetime/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
}
if(data.decision !== undefined){
let data11 = data.decision;
if(!((data11 === "approve") || (data11 === "deny"))){
const err30 = {instancePath:instancePath+"/decision",schemaPath:"#/properties/decision/enum",keyword:"enum",params:{allowedValues: schema35.properties.decision.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
}
for(const key1 in data){
if(pattern8.test(key1)){
if("on" !== data[key1]){
const err31 = {instancePath:instancePath+"/" + key1.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/patternProperties/%5Eop%5C.%5B0-9%5D%7B1%2C5%7D%24/const",keyword:"const",params:{allowedValue: "on"},message:"must be equal to constant"};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
}
}
}
else {
const err32 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err32];
}
else {
vErrors.push(err32);
}
errors++;
}
validate24.errors = vErrors;
return errors === 0;
}
validate24.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

export const exchangeOAuthToken = validate25;
const schema36 = {"$id":"body-exchangeOAuthToken","type":"object","description":"grant_type authorization_code (code, redirect_uri, code_verifier, client_id, resource) or refresh_token (refresh_token, client_id, resource)."};

function validate25(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="body-exchangeOAuthToken" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate25.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(!(data && typeof data == "object" && !Array.isArray(data))){
const err0 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
validate25.errors = vErrors;
return errors === 0;
}
validate25.evaluated = {"dynamicProps":false,"dynamicItems":false};

export const revokeOAuthToken = validate26;
const schema37 = {"$id":"body-revokeOAuthToken","type":"object","description":"token and client_id."};

function validate26(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="body-revokeOAuthToken" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate26.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(!(data && typeof data == "object" && !Array.isArray(data))){
const err0 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
validate26.errors = vErrors;
return errors === 0;
}
validate26.evaluated = {"dynamicProps":false,"dynamicItems":false};

export const planMcp = validate27;
const schema38 = {"$id":"body-planMcp","$ref":"engine.json#/components/schemas/McpDefinition"};
const schema40 = {"type":"object","required":["name","services","operations"],"additionalProperties":false,"properties":{"name":{"$ref":"engine.json#/components/schemas/SdkName"},"services":{"type":"array","minItems":1,"maxItems":100,"items":{"type":"string","pattern":"^[^=]+=[^=]+$","maxLength":200}},"operations":{"type":"array","minItems":1,"maxItems":5000,"items":{"type":"string","pattern":"^[^=]+=.+$","maxLength":300}},"requireApproval":{"type":"array","description":"Operations whose calls in `execute` wait for a person's approval (`svc-cli mcp approve`,\nor the MCP client's elicitation): public operation IDs with `*` suffix globs, as token\nallowlists take them, or `destructive` for every selected operation whose hint is\ndestructive. Each entry must match a selected operation.\n","maxItems":1000,"items":{"type":"string","minLength":1,"maxLength":300,"pattern":"^(destructive|\\*|[a-z][a-z0-9-]*\\.[^*]*\\*?)$"}}}};
const schema41 = {"type":"string","pattern":"^[a-z][a-z0-9-]{0,62}$"};
const pattern11 = new RegExp("^[a-z][a-z0-9-]{0,62}$", "u");
const pattern12 = new RegExp("^[^=]+=[^=]+$", "u");
const pattern13 = new RegExp("^[^=]+=.+$", "u");
const pattern14 = new RegExp("^(destructive|\\*|[a-z][a-z0-9-]*\\.[^*]*\\*?)$", "u");

function validate29(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate29.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.name === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.services === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "services"},message:"must have required property '"+"services"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.operations === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "operations"},message:"must have required property '"+"operations"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
for(const key0 in data){
if(!((((key0 === "name") || (key0 === "services")) || (key0 === "operations")) || (key0 === "requireApproval"))){
const err3 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.name !== undefined){
let data0 = data.name;
if(typeof data0 === "string"){
if(!pattern11.test(data0)){
const err4 = {instancePath:instancePath+"/name",schemaPath:"engine.json#/components/schemas/SdkName/pattern",keyword:"pattern",params:{pattern: "^[a-z][a-z0-9-]{0,62}$"},message:"must match pattern \""+"^[a-z][a-z0-9-]{0,62}$"+"\""};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
else {
const err5 = {instancePath:instancePath+"/name",schemaPath:"engine.json#/components/schemas/SdkName/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.services !== undefined){
let data1 = data.services;
if(Array.isArray(data1)){
if(data1.length > 100){
const err6 = {instancePath:instancePath+"/services",schemaPath:"#/properties/services/maxItems",keyword:"maxItems",params:{limit: 100},message:"must NOT have more than 100 items"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(data1.length < 1){
const err7 = {instancePath:instancePath+"/services",schemaPath:"#/properties/services/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
const len0 = data1.length;
for(let i0=0; i0<len0; i0++){
let data2 = data1[i0];
if(typeof data2 === "string"){
if(func1(data2) > 200){
const err8 = {instancePath:instancePath+"/services/" + i0,schemaPath:"#/properties/services/items/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
if(!pattern12.test(data2)){
const err9 = {instancePath:instancePath+"/services/" + i0,schemaPath:"#/properties/services/items/pattern",keyword:"pattern",params:{pattern: "^[^=]+=[^=]+$"},message:"must match pattern \""+"^[^=]+=[^=]+$"+"\""};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
else {
const err10 = {instancePath:instancePath+"/services/" + i0,schemaPath:"#/properties/services/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
}
else {
const err11 = {instancePath:instancePath+"/services",schemaPath:"#/properties/services/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.operations !== undefined){
let data3 = data.operations;
if(Array.isArray(data3)){
if(data3.length > 5000){
const err12 = {instancePath:instancePath+"/operations",schemaPath:"#/properties/operations/maxItems",keyword:"maxItems",params:{limit: 5000},message:"must NOT have more than 5000 items"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
if(data3.length < 1){
const err13 = {instancePath:instancePath+"/operations",schemaPath:"#/properties/operations/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
const len1 = data3.length;
for(let i1=0; i1<len1; i1++){
let data4 = data3[i1];
if(typeof data4 === "string"){
if(func1(data4) > 300){
const err14 = {instancePath:instancePath+"/operations/" + i1,schemaPath:"#/properties/operations/items/maxLength",keyword:"maxLength",params:{limit: 300},message:"must NOT have more than 300 characters"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
if(!pattern13.test(data4)){
const err15 = {instancePath:instancePath+"/operations/" + i1,schemaPath:"#/properties/operations/items/pattern",keyword:"pattern",params:{pattern: "^[^=]+=.+$"},message:"must match pattern \""+"^[^=]+=.+$"+"\""};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
else {
const err16 = {instancePath:instancePath+"/operations/" + i1,schemaPath:"#/properties/operations/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
}
else {
const err17 = {instancePath:instancePath+"/operations",schemaPath:"#/properties/operations/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
if(data.requireApproval !== undefined){
let data5 = data.requireApproval;
if(Array.isArray(data5)){
if(data5.length > 1000){
const err18 = {instancePath:instancePath+"/requireApproval",schemaPath:"#/properties/requireApproval/maxItems",keyword:"maxItems",params:{limit: 1000},message:"must NOT have more than 1000 items"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
const len2 = data5.length;
for(let i2=0; i2<len2; i2++){
let data6 = data5[i2];
if(typeof data6 === "string"){
if(func1(data6) > 300){
const err19 = {instancePath:instancePath+"/requireApproval/" + i2,schemaPath:"#/properties/requireApproval/items/maxLength",keyword:"maxLength",params:{limit: 300},message:"must NOT have more than 300 characters"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
if(func1(data6) < 1){
const err20 = {instancePath:instancePath+"/requireApproval/" + i2,schemaPath:"#/properties/requireApproval/items/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
if(!pattern14.test(data6)){
const err21 = {instancePath:instancePath+"/requireApproval/" + i2,schemaPath:"#/properties/requireApproval/items/pattern",keyword:"pattern",params:{pattern: "^(destructive|\\*|[a-z][a-z0-9-]*\\.[^*]*\\*?)$"},message:"must match pattern \""+"^(destructive|\\*|[a-z][a-z0-9-]*\\.[^*]*\\*?)$"+"\""};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
else {
const err22 = {instancePath:instancePath+"/requireApproval/" + i2,schemaPath:"#/properties/requireApproval/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
}
else {
const err23 = {instancePath:instancePath+"/requireApproval",schemaPath:"#/properties/requireApproval/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
}
else {
const err24 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
validate29.errors = vErrors;
return errors === 0;
}
validate29.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};


function validate27(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="body-planMcp" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate27.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(!(validate29(data, {instancePath,parentData,parentDataProperty,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate29.errors : vErrors.concat(validate29.errors);
errors = vErrors.length;
}
validate27.errors = vErrors;
return errors === 0;
}
validate27.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

export const publishMcp = validate31;
const schema42 = {"$id":"body-publishMcp","$ref":"engine.json#/components/schemas/McpDefinition"};

function validate32(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate32.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.name === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.services === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "services"},message:"must have required property '"+"services"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.operations === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "operations"},message:"must have required property '"+"operations"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
for(const key0 in data){
if(!((((key0 === "name") || (key0 === "services")) || (key0 === "operations")) || (key0 === "requireApproval"))){
const err3 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.name !== undefined){
let data0 = data.name;
if(typeof data0 === "string"){
if(!pattern11.test(data0)){
const err4 = {instancePath:instancePath+"/name",schemaPath:"engine.json#/components/schemas/SdkName/pattern",keyword:"pattern",params:{pattern: "^[a-z][a-z0-9-]{0,62}$"},message:"must match pattern \""+"^[a-z][a-z0-9-]{0,62}$"+"\""};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
else {
const err5 = {instancePath:instancePath+"/name",schemaPath:"engine.json#/components/schemas/SdkName/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.services !== undefined){
let data1 = data.services;
if(Array.isArray(data1)){
if(data1.length > 100){
const err6 = {instancePath:instancePath+"/services",schemaPath:"#/properties/services/maxItems",keyword:"maxItems",params:{limit: 100},message:"must NOT have more than 100 items"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(data1.length < 1){
const err7 = {instancePath:instancePath+"/services",schemaPath:"#/properties/services/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
const len0 = data1.length;
for(let i0=0; i0<len0; i0++){
let data2 = data1[i0];
if(typeof data2 === "string"){
if(func1(data2) > 200){
const err8 = {instancePath:instancePath+"/services/" + i0,schemaPath:"#/properties/services/items/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
if(!pattern12.test(data2)){
const err9 = {instancePath:instancePath+"/services/" + i0,schemaPath:"#/properties/services/items/pattern",keyword:"pattern",params:{pattern: "^[^=]+=[^=]+$"},message:"must match pattern \""+"^[^=]+=[^=]+$"+"\""};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
else {
const err10 = {instancePath:instancePath+"/services/" + i0,schemaPath:"#/properties/services/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
}
else {
const err11 = {instancePath:instancePath+"/services",schemaPath:"#/properties/services/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.operations !== undefined){
let data3 = data.operations;
if(Array.isArray(data3)){
if(data3.length > 5000){
const err12 = {instancePath:instancePath+"/operations",schemaPath:"#/properties/operations/maxItems",keyword:"maxItems",params:{limit: 5000},message:"must NOT have more than 5000 items"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
if(data3.length < 1){
const err13 = {instancePath:instancePath+"/operations",schemaPath:"#/properties/operations/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
const len1 = data3.length;
for(let i1=0; i1<len1; i1++){
let data4 = data3[i1];
if(typeof data4 === "string"){
if(func1(data4) > 300){
const err14 = {instancePath:instancePath+"/operations/" + i1,schemaPath:"#/properties/operations/items/maxLength",keyword:"maxLength",params:{limit: 300},message:"must NOT have more than 300 characters"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
if(!pattern13.test(data4)){
const err15 = {instancePath:instancePath+"/operations/" + i1,schemaPath:"#/properties/operations/items/pattern",keyword:"pattern",params:{pattern: "^[^=]+=.+$"},message:"must match pattern \""+"^[^=]+=.+$"+"\""};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
else {
const err16 = {instancePath:instancePath+"/operations/" + i1,schemaPath:"#/properties/operations/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
}
else {
const err17 = {instancePath:instancePath+"/operations",schemaPath:"#/properties/operations/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
if(data.requireApproval !== undefined){
let data5 = data.requireApproval;
if(Array.isArray(data5)){
if(data5.length > 1000){
const err18 = {instancePath:instancePath+"/requireApproval",schemaPath:"#/properties/requireApproval/maxItems",keyword:"maxItems",params:{limit: 1000},message:"must NOT have more than 1000 items"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
const len2 = data5.length;
for(let i2=0; i2<len2; i2++){
let data6 = data5[i2];
if(typeof data6 === "string"){
if(func1(data6) > 300){
const err19 = {instancePath:instancePath+"/requireApproval/" + i2,schemaPath:"#/properties/requireApproval/items/maxLength",keyword:"maxLength",params:{limit: 300},message:"must NOT have more than 300 characters"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
if(func1(data6) < 1){
const err20 = {instancePath:instancePath+"/requireApproval/" + i2,schemaPath:"#/properties/requireApproval/items/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
if(!pattern14.test(data6)){
const err21 = {instancePath:instancePath+"/requireApproval/" + i2,schemaPath:"#/properties/requireApproval/items/pattern",keyword:"pattern",params:{pattern: "^(destructive|\\*|[a-z][a-z0-9-]*\\.[^*]*\\*?)$"},message:"must match pattern \""+"^(destructive|\\*|[a-z][a-z0-9-]*\\.[^*]*\\*?)$"+"\""};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
else {
const err22 = {instancePath:instancePath+"/requireApproval/" + i2,schemaPath:"#/properties/requireApproval/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
}
else {
const err23 = {instancePath:instancePath+"/requireApproval",schemaPath:"#/properties/requireApproval/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
}
else {
const err24 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
validate32.errors = vErrors;
return errors === 0;
}
validate32.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};


function validate31(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="body-publishMcp" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate31.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(!(validate32(data, {instancePath,parentData,parentDataProperty,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate32.errors : vErrors.concat(validate32.errors);
errors = vErrors.length;
}
validate31.errors = vErrors;
return errors === 0;
}
validate31.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

export const createMcpToken = validate34;
const schema45 = {"$id":"body-createMcpToken","type":"object","required":["allow"],"additionalProperties":false,"properties":{"allow":{"type":"array","minItems":1,"maxItems":1000,"items":{"type":"string","minLength":1,"maxLength":300,"pattern":"^(\\*|[a-z][a-z0-9-]*\\.[^*]*\\*?)$"}},"expiresAt":{"type":["string","null"],"format":"date-time"},"binding":{"$ref":"engine.json#/components/schemas/Binding"},"readOnly":{"type":"boolean","description":"true: the token calls only read-only operations (`read_only` in search_docs); any other call is refused with ENGINE_FORBIDDEN_OPERATION before anything is sent."}}};
const schema46 = {"type":["object","null"],"description":"Fixed selectors; authoritative over the caller's.","additionalProperties":false,"properties":{"endUserRef":{"type":"string","minLength":1,"maxLength":200,"pattern":"^[^\\p{Cc}\\p{Cs}]+$"},"authName":{"type":"string","minLength":1,"maxLength":64,"pattern":"^[^\\p{Cc}\\p{Cs}]+$"},"resourceId":{"type":"string","minLength":1,"maxLength":200,"pattern":"^[^\\p{Cc}\\p{Cs}]+$"}}};
const pattern19 = new RegExp("^(\\*|[a-z][a-z0-9-]*\\.[^*]*\\*?)$", "u");
const pattern20 = new RegExp("^[^\\p{Cc}\\p{Cs}]+$", "u");
const formats0 = require("ajv-formats/dist/formats").fullFormats["date-time"];

function validate34(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="body-createMcpToken" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate34.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.allow === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "allow"},message:"must have required property '"+"allow"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
for(const key0 in data){
if(!((((key0 === "allow") || (key0 === "expiresAt")) || (key0 === "binding")) || (key0 === "readOnly"))){
const err1 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.allow !== undefined){
let data0 = data.allow;
if(Array.isArray(data0)){
if(data0.length > 1000){
const err2 = {instancePath:instancePath+"/allow",schemaPath:"#/properties/allow/maxItems",keyword:"maxItems",params:{limit: 1000},message:"must NOT have more than 1000 items"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(data0.length < 1){
const err3 = {instancePath:instancePath+"/allow",schemaPath:"#/properties/allow/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
const len0 = data0.length;
for(let i0=0; i0<len0; i0++){
let data1 = data0[i0];
if(typeof data1 === "string"){
if(func1(data1) > 300){
const err4 = {instancePath:instancePath+"/allow/" + i0,schemaPath:"#/properties/allow/items/maxLength",keyword:"maxLength",params:{limit: 300},message:"must NOT have more than 300 characters"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(func1(data1) < 1){
const err5 = {instancePath:instancePath+"/allow/" + i0,schemaPath:"#/properties/allow/items/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(!pattern19.test(data1)){
const err6 = {instancePath:instancePath+"/allow/" + i0,schemaPath:"#/properties/allow/items/pattern",keyword:"pattern",params:{pattern: "^(\\*|[a-z][a-z0-9-]*\\.[^*]*\\*?)$"},message:"must match pattern \""+"^(\\*|[a-z][a-z0-9-]*\\.[^*]*\\*?)$"+"\""};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
else {
const err7 = {instancePath:instancePath+"/allow/" + i0,schemaPath:"#/properties/allow/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
}
else {
const err8 = {instancePath:instancePath+"/allow",schemaPath:"#/properties/allow/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.expiresAt !== undefined){
let data2 = data.expiresAt;
if((typeof data2 !== "string") && (data2 !== null)){
const err9 = {instancePath:instancePath+"/expiresAt",schemaPath:"#/properties/expiresAt/type",keyword:"type",params:{type: schema45.properties.expiresAt.type},message:"must be string,null"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
if(typeof data2 === "string"){
if(!(formats0.validate(data2))){
const err10 = {instancePath:instancePath+"/expiresAt",schemaPath:"#/properties/expiresAt/format",keyword:"format",params:{format: "date-time"},message:"must match format \""+"date-time"+"\""};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
}
if(data.binding !== undefined){
let data3 = data.binding;
if((!(data3 && typeof data3 == "object" && !Array.isArray(data3))) && (data3 !== null)){
const err11 = {instancePath:instancePath+"/binding",schemaPath:"engine.json#/components/schemas/Binding/type",keyword:"type",params:{type: schema46.type},message:"must be object,null"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
if(data3 && typeof data3 == "object" && !Array.isArray(data3)){
for(const key1 in data3){
if(!(((key1 === "endUserRef") || (key1 === "authName")) || (key1 === "resourceId"))){
const err12 = {instancePath:instancePath+"/binding",schemaPath:"engine.json#/components/schemas/Binding/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data3.endUserRef !== undefined){
let data4 = data3.endUserRef;
if(typeof data4 === "string"){
if(func1(data4) > 200){
const err13 = {instancePath:instancePath+"/binding/endUserRef",schemaPath:"engine.json#/components/schemas/Binding/properties/endUserRef/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
if(func1(data4) < 1){
const err14 = {instancePath:instancePath+"/binding/endUserRef",schemaPath:"engine.json#/components/schemas/Binding/properties/endUserRef/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
if(!pattern20.test(data4)){
const err15 = {instancePath:instancePath+"/binding/endUserRef",schemaPath:"engine.json#/components/schemas/Binding/properties/endUserRef/pattern",keyword:"pattern",params:{pattern: "^[^\\p{Cc}\\p{Cs}]+$"},message:"must match pattern \""+"^[^\\p{Cc}\\p{Cs}]+$"+"\""};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
else {
const err16 = {instancePath:instancePath+"/binding/endUserRef",schemaPath:"engine.json#/components/schemas/Binding/properties/endUserRef/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
if(data3.authName !== undefined){
let data5 = data3.authName;
if(typeof data5 === "string"){
if(func1(data5) > 64){
const err17 = {instancePath:instancePath+"/binding/authName",schemaPath:"engine.json#/components/schemas/Binding/properties/authName/maxLength",keyword:"maxLength",params:{limit: 64},message:"must NOT have more than 64 characters"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
if(func1(data5) < 1){
const err18 = {instancePath:instancePath+"/binding/authName",schemaPath:"engine.json#/components/schemas/Binding/properties/authName/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
if(!pattern20.test(data5)){
const err19 = {instancePath:instancePath+"/binding/authName",schemaPath:"engine.json#/components/schemas/Binding/properties/authName/pattern",keyword:"pattern",params:{pattern: "^[^\\p{Cc}\\p{Cs}]+$"},message:"must match pattern \""+"^[^\\p{Cc}\\p{Cs}]+$"+"\""};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
else {
const err20 = {instancePath:instancePath+"/binding/authName",schemaPath:"engine.json#/components/schemas/Binding/properties/authName/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
if(data3.resourceId !== undefined){
let data6 = data3.resourceId;
if(typeof data6 === "string"){
if(func1(data6) > 200){
const err21 = {instancePath:instancePath+"/binding/resourceId",schemaPath:"engine.json#/components/schemas/Binding/properties/resourceId/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters"};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
if(func1(data6) < 1){
const err22 = {instancePath:instancePath+"/binding/resourceId",schemaPath:"engine.json#/components/schemas/Binding/properties/resourceId/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
if(!pattern20.test(data6)){
const err23 = {instancePath:instancePath+"/binding/resourceId",schemaPath:"engine.json#/components/schemas/Binding/properties/resourceId/pattern",keyword:"pattern",params:{pattern: "^[^\\p{Cc}\\p{Cs}]+$"},message:"must match pattern \""+"^[^\\p{Cc}\\p{Cs}]+$"+"\""};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
else {
const err24 = {instancePath:instancePath+"/binding/resourceId",schemaPath:"engine.json#/components/schemas/Binding/properties/resourceId/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
}
}
}
if(data.readOnly !== undefined){
if(typeof data.readOnly !== "boolean"){
const err25 = {instancePath:instancePath+"/readOnly",schemaPath:"#/properties/readOnly/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
}
else {
const err26 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
validate34.errors = vErrors;
return errors === 0;
}
validate34.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

export const createConnection = validate35;
const schema47 = {"$id":"body-createConnection","type":"object","required":["service","endUserRef"],"additionalProperties":false,"properties":{"service":{"$ref":"engine.json#/components/schemas/ServiceNameValue"},"endUserRef":{"type":"string","minLength":1,"maxLength":200,"pattern":"^[^\\p{Cc}\\p{Cs}]+$"},"authName":{"type":"string","minLength":1,"maxLength":64,"pattern":"^[A-Za-z0-9._-]+$"}}};
const schema48 = {"type":"string","pattern":"^[a-z][a-z0-9-]{0,62}$"};
const pattern25 = new RegExp("^[A-Za-z0-9._-]+$", "u");

function validate35(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="body-createConnection" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate35.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.service === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "service"},message:"must have required property '"+"service"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.endUserRef === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "endUserRef"},message:"must have required property '"+"endUserRef"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
for(const key0 in data){
if(!(((key0 === "service") || (key0 === "endUserRef")) || (key0 === "authName"))){
const err2 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.service !== undefined){
let data0 = data.service;
if(typeof data0 === "string"){
if(!pattern11.test(data0)){
const err3 = {instancePath:instancePath+"/service",schemaPath:"engine.json#/components/schemas/ServiceNameValue/pattern",keyword:"pattern",params:{pattern: "^[a-z][a-z0-9-]{0,62}$"},message:"must match pattern \""+"^[a-z][a-z0-9-]{0,62}$"+"\""};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
else {
const err4 = {instancePath:instancePath+"/service",schemaPath:"engine.json#/components/schemas/ServiceNameValue/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.endUserRef !== undefined){
let data1 = data.endUserRef;
if(typeof data1 === "string"){
if(func1(data1) > 200){
const err5 = {instancePath:instancePath+"/endUserRef",schemaPath:"#/properties/endUserRef/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(func1(data1) < 1){
const err6 = {instancePath:instancePath+"/endUserRef",schemaPath:"#/properties/endUserRef/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(!pattern20.test(data1)){
const err7 = {instancePath:instancePath+"/endUserRef",schemaPath:"#/properties/endUserRef/pattern",keyword:"pattern",params:{pattern: "^[^\\p{Cc}\\p{Cs}]+$"},message:"must match pattern \""+"^[^\\p{Cc}\\p{Cs}]+$"+"\""};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
else {
const err8 = {instancePath:instancePath+"/endUserRef",schemaPath:"#/properties/endUserRef/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.authName !== undefined){
let data2 = data.authName;
if(typeof data2 === "string"){
if(func1(data2) > 64){
const err9 = {instancePath:instancePath+"/authName",schemaPath:"#/properties/authName/maxLength",keyword:"maxLength",params:{limit: 64},message:"must NOT have more than 64 characters"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
if(func1(data2) < 1){
const err10 = {instancePath:instancePath+"/authName",schemaPath:"#/properties/authName/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
if(!pattern25.test(data2)){
const err11 = {instancePath:instancePath+"/authName",schemaPath:"#/properties/authName/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9._-]+$"},message:"must match pattern \""+"^[A-Za-z0-9._-]+$"+"\""};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
else {
const err12 = {instancePath:instancePath+"/authName",schemaPath:"#/properties/authName/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
}
else {
const err13 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
validate35.errors = vErrors;
return errors === 0;
}
validate35.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

export const applyWorkspace = validate36;
const schema49 = {"$id":"body-applyWorkspace","type":"object","required":["services"],"additionalProperties":false,"properties":{"services":{"type":"array","maxItems":1000,"items":{"type":"object","required":["name","version"],"additionalProperties":false,"properties":{"name":{"$ref":"engine.json#/components/schemas/ServiceNameValue"},"version":{"$ref":"engine.json#/components/schemas/ServiceVersion"},"baseUrl":{"$ref":"engine.json#/components/schemas/BaseUrl"}}}},"revision":{"$ref":"engine.json#/components/schemas/WorkspaceRevision"}}};
const schema51 = {"type":"string","pattern":"^v[0-9]+$"};
const schema52 = {"type":"string","format":"uri","pattern":"^https?://","maxLength":2048};
const schema53 = {"description":"What the enabled services are, as one opaque value; it changes with every change to them.","type":"string","pattern":"^wsr_[A-Za-z0-9_-]{22}$"};
const pattern27 = new RegExp("^v[0-9]+$", "u");
const pattern28 = new RegExp("^https?://", "u");
const pattern29 = new RegExp("^wsr_[A-Za-z0-9_-]{22}$", "u");
const formats2 = require("ajv-formats/dist/formats").fullFormats.uri;

function validate36(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="body-applyWorkspace" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate36.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.services === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "services"},message:"must have required property '"+"services"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
for(const key0 in data){
if(!((key0 === "services") || (key0 === "revision"))){
const err1 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.services !== undefined){
let data0 = data.services;
if(Array.isArray(data0)){
if(data0.length > 1000){
const err2 = {instancePath:instancePath+"/services",schemaPath:"#/properties/services/maxItems",keyword:"maxItems",params:{limit: 1000},message:"must NOT have more than 1000 items"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
const len0 = data0.length;
for(let i0=0; i0<len0; i0++){
let data1 = data0[i0];
if(data1 && typeof data1 == "object" && !Array.isArray(data1)){
if(data1.name === undefined){
const err3 = {instancePath:instancePath+"/services/" + i0,schemaPath:"#/properties/services/items/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data1.version === undefined){
const err4 = {instancePath:instancePath+"/services/" + i0,schemaPath:"#/properties/services/items/required",keyword:"required",params:{missingProperty: "version"},message:"must have required property '"+"version"+"'"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
for(const key1 in data1){
if(!(((key1 === "name") || (key1 === "version")) || (key1 === "baseUrl"))){
const err5 = {instancePath:instancePath+"/services/" + i0,schemaPath:"#/properties/services/items/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data1.name !== undefined){
let data2 = data1.name;
if(typeof data2 === "string"){
if(!pattern11.test(data2)){
const err6 = {instancePath:instancePath+"/services/" + i0+"/name",schemaPath:"engine.json#/components/schemas/ServiceNameValue/pattern",keyword:"pattern",params:{pattern: "^[a-z][a-z0-9-]{0,62}$"},message:"must match pattern \""+"^[a-z][a-z0-9-]{0,62}$"+"\""};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
else {
const err7 = {instancePath:instancePath+"/services/" + i0+"/name",schemaPath:"engine.json#/components/schemas/ServiceNameValue/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data1.version !== undefined){
let data3 = data1.version;
if(typeof data3 === "string"){
if(!pattern27.test(data3)){
const err8 = {instancePath:instancePath+"/services/" + i0+"/version",schemaPath:"engine.json#/components/schemas/ServiceVersion/pattern",keyword:"pattern",params:{pattern: "^v[0-9]+$"},message:"must match pattern \""+"^v[0-9]+$"+"\""};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
else {
const err9 = {instancePath:instancePath+"/services/" + i0+"/version",schemaPath:"engine.json#/components/schemas/ServiceVersion/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data1.baseUrl !== undefined){
let data4 = data1.baseUrl;
if(typeof data4 === "string"){
if(func1(data4) > 2048){
const err10 = {instancePath:instancePath+"/services/" + i0+"/baseUrl",schemaPath:"engine.json#/components/schemas/BaseUrl/maxLength",keyword:"maxLength",params:{limit: 2048},message:"must NOT have more than 2048 characters"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
if(!pattern28.test(data4)){
const err11 = {instancePath:instancePath+"/services/" + i0+"/baseUrl",schemaPath:"engine.json#/components/schemas/BaseUrl/pattern",keyword:"pattern",params:{pattern: "^https?://"},message:"must match pattern \""+"^https?://"+"\""};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
if(!(formats2(data4))){
const err12 = {instancePath:instancePath+"/services/" + i0+"/baseUrl",schemaPath:"engine.json#/components/schemas/BaseUrl/format",keyword:"format",params:{format: "uri"},message:"must match format \""+"uri"+"\""};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
else {
const err13 = {instancePath:instancePath+"/services/" + i0+"/baseUrl",schemaPath:"engine.json#/components/schemas/BaseUrl/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
}
else {
const err14 = {instancePath:instancePath+"/services/" + i0,schemaPath:"#/properties/services/items/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
}
else {
const err15 = {instancePath:instancePath+"/services",schemaPath:"#/properties/services/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
if(data.revision !== undefined){
let data5 = data.revision;
if(typeof data5 === "string"){
if(!pattern29.test(data5)){
const err16 = {instancePath:instancePath+"/revision",schemaPath:"engine.json#/components/schemas/WorkspaceRevision/pattern",keyword:"pattern",params:{pattern: "^wsr_[A-Za-z0-9_-]{22}$"},message:"must match pattern \""+"^wsr_[A-Za-z0-9_-]{22}$"+"\""};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
else {
const err17 = {instancePath:instancePath+"/revision",schemaPath:"engine.json#/components/schemas/WorkspaceRevision/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
}
else {
const err18 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
validate36.errors = vErrors;
return errors === 0;
}
validate36.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

export const enableWorkspaceService = validate37;
const schema54 = {"$id":"body-enableWorkspaceService","type":"object","required":["version"],"additionalProperties":false,"properties":{"version":{"$ref":"engine.json#/components/schemas/ServiceVersion"},"baseUrl":{"$ref":"engine.json#/components/schemas/BaseUrl"}}};

function validate37(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="body-enableWorkspaceService" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate37.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.version === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "version"},message:"must have required property '"+"version"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
for(const key0 in data){
if(!((key0 === "version") || (key0 === "baseUrl"))){
const err1 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.version !== undefined){
let data0 = data.version;
if(typeof data0 === "string"){
if(!pattern27.test(data0)){
const err2 = {instancePath:instancePath+"/version",schemaPath:"engine.json#/components/schemas/ServiceVersion/pattern",keyword:"pattern",params:{pattern: "^v[0-9]+$"},message:"must match pattern \""+"^v[0-9]+$"+"\""};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
else {
const err3 = {instancePath:instancePath+"/version",schemaPath:"engine.json#/components/schemas/ServiceVersion/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.baseUrl !== undefined){
let data1 = data.baseUrl;
if(typeof data1 === "string"){
if(func1(data1) > 2048){
const err4 = {instancePath:instancePath+"/baseUrl",schemaPath:"engine.json#/components/schemas/BaseUrl/maxLength",keyword:"maxLength",params:{limit: 2048},message:"must NOT have more than 2048 characters"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(!pattern28.test(data1)){
const err5 = {instancePath:instancePath+"/baseUrl",schemaPath:"engine.json#/components/schemas/BaseUrl/pattern",keyword:"pattern",params:{pattern: "^https?://"},message:"must match pattern \""+"^https?://"+"\""};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(!(formats2(data1))){
const err6 = {instancePath:instancePath+"/baseUrl",schemaPath:"engine.json#/components/schemas/BaseUrl/format",keyword:"format",params:{format: "uri"},message:"must match format \""+"uri"+"\""};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
else {
const err7 = {instancePath:instancePath+"/baseUrl",schemaPath:"engine.json#/components/schemas/BaseUrl/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
}
else {
const err8 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
validate37.errors = vErrors;
return errors === 0;
}
validate37.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

export const importWorkspaceService = validate38;
const schema57 = {"$id":"body-importWorkspaceService","type":"object","required":["name","version","document"],"additionalProperties":false,"properties":{"name":{"$ref":"engine.json#/components/schemas/ServiceNameValue"},"version":{"$ref":"engine.json#/components/schemas/ServiceVersion"},"document":{"description":"The OpenAPI document, as JSON or YAML text.","type":"string","minLength":2,"maxLength":33554432},"baseUrl":{"$ref":"engine.json#/components/schemas/BaseUrl"},"auth":{"$ref":"engine.json#/components/schemas/ApiKeyAuth"},"idempotency":{"description":"The provider honours an idempotency key in this header; a call given a key sends one derived from it there, and may then be retried after a 502, 503, 504 or timeout whatever its method.","type":"object","required":["header"],"additionalProperties":false,"properties":{"header":{"type":"string","minLength":1,"maxLength":256}}},"retry":{"description":"Attempts of one provider request (default 3; 1 never retries).","type":"object","required":["maxAttempts"],"additionalProperties":false,"properties":{"maxAttempts":{"type":"integer","minimum":1,"maximum":10}}}}};
const schema61 = {"type":"object","required":["type","in","name"],"additionalProperties":false,"properties":{"type":{"const":"api_key"},"in":{"enum":["header","query"]},"name":{"type":"string","minLength":1,"maxLength":128},"prefix":{"type":"string","maxLength":64}}};

function validate38(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="body-importWorkspaceService" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate38.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.name === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.version === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "version"},message:"must have required property '"+"version"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.document === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "document"},message:"must have required property '"+"document"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
for(const key0 in data){
if(!(((((((key0 === "name") || (key0 === "version")) || (key0 === "document")) || (key0 === "baseUrl")) || (key0 === "auth")) || (key0 === "idempotency")) || (key0 === "retry"))){
const err3 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.name !== undefined){
let data0 = data.name;
if(typeof data0 === "string"){
if(!pattern11.test(data0)){
const err4 = {instancePath:instancePath+"/name",schemaPath:"engine.json#/components/schemas/ServiceNameValue/pattern",keyword:"pattern",params:{pattern: "^[a-z][a-z0-9-]{0,62}$"},message:"must match pattern \""+"^[a-z][a-z0-9-]{0,62}$"+"\""};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
else {
const err5 = {instancePath:instancePath+"/name",schemaPath:"engine.json#/components/schemas/ServiceNameValue/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.version !== undefined){
let data1 = data.version;
if(typeof data1 === "string"){
if(!pattern27.test(data1)){
const err6 = {instancePath:instancePath+"/version",schemaPath:"engine.json#/components/schemas/ServiceVersion/pattern",keyword:"pattern",params:{pattern: "^v[0-9]+$"},message:"must match pattern \""+"^v[0-9]+$"+"\""};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
else {
const err7 = {instancePath:instancePath+"/version",schemaPath:"engine.json#/components/schemas/ServiceVersion/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.document !== undefined){
let data2 = data.document;
if(typeof data2 === "string"){
if(func1(data2) > 33554432){
const err8 = {instancePath:instancePath+"/document",schemaPath:"#/properties/document/maxLength",keyword:"maxLength",params:{limit: 33554432},message:"must NOT have more than 33554432 characters"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
if(func1(data2) < 2){
const err9 = {instancePath:instancePath+"/document",schemaPath:"#/properties/document/minLength",keyword:"minLength",params:{limit: 2},message:"must NOT have fewer than 2 characters"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
else {
const err10 = {instancePath:instancePath+"/document",schemaPath:"#/properties/document/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data.baseUrl !== undefined){
let data3 = data.baseUrl;
if(typeof data3 === "string"){
if(func1(data3) > 2048){
const err11 = {instancePath:instancePath+"/baseUrl",schemaPath:"engine.json#/components/schemas/BaseUrl/maxLength",keyword:"maxLength",params:{limit: 2048},message:"must NOT have more than 2048 characters"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
if(!pattern28.test(data3)){
const err12 = {instancePath:instancePath+"/baseUrl",schemaPath:"engine.json#/components/schemas/BaseUrl/pattern",keyword:"pattern",params:{pattern: "^https?://"},message:"must match pattern \""+"^https?://"+"\""};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
if(!(formats2(data3))){
const err13 = {instancePath:instancePath+"/baseUrl",schemaPath:"engine.json#/components/schemas/BaseUrl/format",keyword:"format",params:{format: "uri"},message:"must match format \""+"uri"+"\""};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
else {
const err14 = {instancePath:instancePath+"/baseUrl",schemaPath:"engine.json#/components/schemas/BaseUrl/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data.auth !== undefined){
let data4 = data.auth;
if(data4 && typeof data4 == "object" && !Array.isArray(data4)){
if(data4.type === undefined){
const err15 = {instancePath:instancePath+"/auth",schemaPath:"engine.json#/components/schemas/ApiKeyAuth/required",keyword:"required",params:{missingProperty: "type"},message:"must have required property '"+"type"+"'"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
if(data4.in === undefined){
const err16 = {instancePath:instancePath+"/auth",schemaPath:"engine.json#/components/schemas/ApiKeyAuth/required",keyword:"required",params:{missingProperty: "in"},message:"must have required property '"+"in"+"'"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
if(data4.name === undefined){
const err17 = {instancePath:instancePath+"/auth",schemaPath:"engine.json#/components/schemas/ApiKeyAuth/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
for(const key1 in data4){
if(!((((key1 === "type") || (key1 === "in")) || (key1 === "name")) || (key1 === "prefix"))){
const err18 = {instancePath:instancePath+"/auth",schemaPath:"engine.json#/components/schemas/ApiKeyAuth/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
if(data4.type !== undefined){
if("api_key" !== data4.type){
const err19 = {instancePath:instancePath+"/auth/type",schemaPath:"engine.json#/components/schemas/ApiKeyAuth/properties/type/const",keyword:"const",params:{allowedValue: "api_key"},message:"must be equal to constant"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
if(data4.in !== undefined){
let data6 = data4.in;
if(!((data6 === "header") || (data6 === "query"))){
const err20 = {instancePath:instancePath+"/auth/in",schemaPath:"engine.json#/components/schemas/ApiKeyAuth/properties/in/enum",keyword:"enum",params:{allowedValues: schema61.properties.in.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
if(data4.name !== undefined){
let data7 = data4.name;
if(typeof data7 === "string"){
if(func1(data7) > 128){
const err21 = {instancePath:instancePath+"/auth/name",schemaPath:"engine.json#/components/schemas/ApiKeyAuth/properties/name/maxLength",keyword:"maxLength",params:{limit: 128},message:"must NOT have more than 128 characters"};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
if(func1(data7) < 1){
const err22 = {instancePath:instancePath+"/auth/name",schemaPath:"engine.json#/components/schemas/ApiKeyAuth/properties/name/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
else {
const err23 = {instancePath:instancePath+"/auth/name",schemaPath:"engine.json#/components/schemas/ApiKeyAuth/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
if(data4.prefix !== undefined){
let data8 = data4.prefix;
if(typeof data8 === "string"){
if(func1(data8) > 64){
const err24 = {instancePath:instancePath+"/auth/prefix",schemaPath:"engine.json#/components/schemas/ApiKeyAuth/properties/prefix/maxLength",keyword:"maxLength",params:{limit: 64},message:"must NOT have more than 64 characters"};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
}
else {
const err25 = {instancePath:instancePath+"/auth/prefix",schemaPath:"engine.json#/components/schemas/ApiKeyAuth/properties/prefix/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
}
else {
const err26 = {instancePath:instancePath+"/auth",schemaPath:"engine.json#/components/schemas/ApiKeyAuth/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
if(data.idempotency !== undefined){
let data9 = data.idempotency;
if(data9 && typeof data9 == "object" && !Array.isArray(data9)){
if(data9.header === undefined){
const err27 = {instancePath:instancePath+"/idempotency",schemaPath:"#/properties/idempotency/required",keyword:"required",params:{missingProperty: "header"},message:"must have required property '"+"header"+"'"};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
for(const key2 in data9){
if(!(key2 === "header")){
const err28 = {instancePath:instancePath+"/idempotency",schemaPath:"#/properties/idempotency/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key2},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
}
if(data9.header !== undefined){
let data10 = data9.header;
if(typeof data10 === "string"){
if(func1(data10) > 256){
const err29 = {instancePath:instancePath+"/idempotency/header",schemaPath:"#/properties/idempotency/properties/header/maxLength",keyword:"maxLength",params:{limit: 256},message:"must NOT have more than 256 characters"};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
if(func1(data10) < 1){
const err30 = {instancePath:instancePath+"/idempotency/header",schemaPath:"#/properties/idempotency/properties/header/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
}
else {
const err31 = {instancePath:instancePath+"/idempotency/header",schemaPath:"#/properties/idempotency/properties/header/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
}
}
else {
const err32 = {instancePath:instancePath+"/idempotency",schemaPath:"#/properties/idempotency/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err32];
}
else {
vErrors.push(err32);
}
errors++;
}
}
if(data.retry !== undefined){
let data11 = data.retry;
if(data11 && typeof data11 == "object" && !Array.isArray(data11)){
if(data11.maxAttempts === undefined){
const err33 = {instancePath:instancePath+"/retry",schemaPath:"#/properties/retry/required",keyword:"required",params:{missingProperty: "maxAttempts"},message:"must have required property '"+"maxAttempts"+"'"};
if(vErrors === null){
vErrors = [err33];
}
else {
vErrors.push(err33);
}
errors++;
}
for(const key3 in data11){
if(!(key3 === "maxAttempts")){
const err34 = {instancePath:instancePath+"/retry",schemaPath:"#/properties/retry/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key3},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err34];
}
else {
vErrors.push(err34);
}
errors++;
}
}
if(data11.maxAttempts !== undefined){
let data12 = data11.maxAttempts;
if(!((typeof data12 == "number") && (!(data12 % 1) && !isNaN(data12)))){
const err35 = {instancePath:instancePath+"/retry/maxAttempts",schemaPath:"#/properties/retry/properties/maxAttempts/type",keyword:"type",params:{type: "integer"},message:"must be integer"};
if(vErrors === null){
vErrors = [err35];
}
else {
vErrors.push(err35);
}
errors++;
}
if(typeof data12 == "number"){
if(data12 > 10 || isNaN(data12)){
const err36 = {instancePath:instancePath+"/retry/maxAttempts",schemaPath:"#/properties/retry/properties/maxAttempts/maximum",keyword:"maximum",params:{comparison: "<=", limit: 10},message:"must be <= 10"};
if(vErrors === null){
vErrors = [err36];
}
else {
vErrors.push(err36);
}
errors++;
}
if(data12 < 1 || isNaN(data12)){
const err37 = {instancePath:instancePath+"/retry/maxAttempts",schemaPath:"#/properties/retry/properties/maxAttempts/minimum",keyword:"minimum",params:{comparison: ">=", limit: 1},message:"must be >= 1"};
if(vErrors === null){
vErrors = [err37];
}
else {
vErrors.push(err37);
}
errors++;
}
}
}
}
else {
const err38 = {instancePath:instancePath+"/retry",schemaPath:"#/properties/retry/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err38];
}
else {
vErrors.push(err38);
}
errors++;
}
}
}
else {
const err39 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err39];
}
else {
vErrors.push(err39);
}
errors++;
}
validate38.errors = vErrors;
return errors === 0;
}
validate38.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

export const setSecret = validate39;
const schema62 = {"$id":"body-setSecret","type":"object","required":["value"],"additionalProperties":false,"properties":{"value":{"type":"string","minLength":1,"maxLength":16384}}};

function validate39(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="body-setSecret" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate39.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.value === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "value"},message:"must have required property '"+"value"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
for(const key0 in data){
if(!(key0 === "value")){
const err1 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.value !== undefined){
let data0 = data.value;
if(typeof data0 === "string"){
if(func1(data0) > 16384){
const err2 = {instancePath:instancePath+"/value",schemaPath:"#/properties/value/maxLength",keyword:"maxLength",params:{limit: 16384},message:"must NOT have more than 16384 characters"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(func1(data0) < 1){
const err3 = {instancePath:instancePath+"/value",schemaPath:"#/properties/value/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
else {
const err4 = {instancePath:instancePath+"/value",schemaPath:"#/properties/value/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
}
else {
const err5 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
validate39.errors = vErrors;
return errors === 0;
}
validate39.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

export const setOAuthClient = validate40;
const schema63 = {"$id":"body-setOAuthClient","type":"object","required":["clientId","clientSecret"],"additionalProperties":false,"properties":{"clientId":{"type":"string","minLength":1,"maxLength":512},"clientSecret":{"type":"string","minLength":1,"maxLength":4096}}};

function validate40(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="body-setOAuthClient" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate40.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.clientId === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "clientId"},message:"must have required property '"+"clientId"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.clientSecret === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "clientSecret"},message:"must have required property '"+"clientSecret"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
for(const key0 in data){
if(!((key0 === "clientId") || (key0 === "clientSecret"))){
const err2 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.clientId !== undefined){
let data0 = data.clientId;
if(typeof data0 === "string"){
if(func1(data0) > 512){
const err3 = {instancePath:instancePath+"/clientId",schemaPath:"#/properties/clientId/maxLength",keyword:"maxLength",params:{limit: 512},message:"must NOT have more than 512 characters"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(func1(data0) < 1){
const err4 = {instancePath:instancePath+"/clientId",schemaPath:"#/properties/clientId/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
else {
const err5 = {instancePath:instancePath+"/clientId",schemaPath:"#/properties/clientId/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.clientSecret !== undefined){
let data1 = data.clientSecret;
if(typeof data1 === "string"){
if(func1(data1) > 4096){
const err6 = {instancePath:instancePath+"/clientSecret",schemaPath:"#/properties/clientSecret/maxLength",keyword:"maxLength",params:{limit: 4096},message:"must NOT have more than 4096 characters"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(func1(data1) < 1){
const err7 = {instancePath:instancePath+"/clientSecret",schemaPath:"#/properties/clientSecret/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
else {
const err8 = {instancePath:instancePath+"/clientSecret",schemaPath:"#/properties/clientSecret/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
}
else {
const err9 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
validate40.errors = vErrors;
return errors === 0;
}
validate40.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

export const validateSdkDefinition = validate41;
const schema64 = {"$id":"body-validateSdkDefinition","$ref":"engine.json#/components/schemas/SdkDefinition"};
const schema65 = {"type":"object","required":["name","services","operations"],"additionalProperties":false,"properties":{"name":{"$ref":"engine.json#/components/schemas/SdkName"},"services":{"type":"array","minItems":1,"maxItems":100,"items":{"type":"string","pattern":"^[^=]+=[^=]+$","maxLength":200}},"operations":{"type":"array","minItems":1,"maxItems":5000,"items":{"type":"string","pattern":"^[^=]+=.+$","maxLength":300}}}};

function validate42(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate42.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.name === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.services === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "services"},message:"must have required property '"+"services"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.operations === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "operations"},message:"must have required property '"+"operations"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
for(const key0 in data){
if(!(((key0 === "name") || (key0 === "services")) || (key0 === "operations"))){
const err3 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.name !== undefined){
let data0 = data.name;
if(typeof data0 === "string"){
if(!pattern11.test(data0)){
const err4 = {instancePath:instancePath+"/name",schemaPath:"engine.json#/components/schemas/SdkName/pattern",keyword:"pattern",params:{pattern: "^[a-z][a-z0-9-]{0,62}$"},message:"must match pattern \""+"^[a-z][a-z0-9-]{0,62}$"+"\""};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
else {
const err5 = {instancePath:instancePath+"/name",schemaPath:"engine.json#/components/schemas/SdkName/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.services !== undefined){
let data1 = data.services;
if(Array.isArray(data1)){
if(data1.length > 100){
const err6 = {instancePath:instancePath+"/services",schemaPath:"#/properties/services/maxItems",keyword:"maxItems",params:{limit: 100},message:"must NOT have more than 100 items"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(data1.length < 1){
const err7 = {instancePath:instancePath+"/services",schemaPath:"#/properties/services/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
const len0 = data1.length;
for(let i0=0; i0<len0; i0++){
let data2 = data1[i0];
if(typeof data2 === "string"){
if(func1(data2) > 200){
const err8 = {instancePath:instancePath+"/services/" + i0,schemaPath:"#/properties/services/items/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
if(!pattern12.test(data2)){
const err9 = {instancePath:instancePath+"/services/" + i0,schemaPath:"#/properties/services/items/pattern",keyword:"pattern",params:{pattern: "^[^=]+=[^=]+$"},message:"must match pattern \""+"^[^=]+=[^=]+$"+"\""};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
else {
const err10 = {instancePath:instancePath+"/services/" + i0,schemaPath:"#/properties/services/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
}
else {
const err11 = {instancePath:instancePath+"/services",schemaPath:"#/properties/services/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.operations !== undefined){
let data3 = data.operations;
if(Array.isArray(data3)){
if(data3.length > 5000){
const err12 = {instancePath:instancePath+"/operations",schemaPath:"#/properties/operations/maxItems",keyword:"maxItems",params:{limit: 5000},message:"must NOT have more than 5000 items"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
if(data3.length < 1){
const err13 = {instancePath:instancePath+"/operations",schemaPath:"#/properties/operations/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
const len1 = data3.length;
for(let i1=0; i1<len1; i1++){
let data4 = data3[i1];
if(typeof data4 === "string"){
if(func1(data4) > 300){
const err14 = {instancePath:instancePath+"/operations/" + i1,schemaPath:"#/properties/operations/items/maxLength",keyword:"maxLength",params:{limit: 300},message:"must NOT have more than 300 characters"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
if(!pattern13.test(data4)){
const err15 = {instancePath:instancePath+"/operations/" + i1,schemaPath:"#/properties/operations/items/pattern",keyword:"pattern",params:{pattern: "^[^=]+=.+$"},message:"must match pattern \""+"^[^=]+=.+$"+"\""};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
else {
const err16 = {instancePath:instancePath+"/operations/" + i1,schemaPath:"#/properties/operations/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
}
else {
const err17 = {instancePath:instancePath+"/operations",schemaPath:"#/properties/operations/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
}
else {
const err18 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
validate42.errors = vErrors;
return errors === 0;
}
validate42.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};


function validate41(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="body-validateSdkDefinition" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate41.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(!(validate42(data, {instancePath,parentData,parentDataProperty,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate42.errors : vErrors.concat(validate42.errors);
errors = vErrors.length;
}
validate41.errors = vErrors;
return errors === 0;
}
validate41.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

export const planSdk = validate44;
const schema67 = {"$id":"body-planSdk","$ref":"engine.json#/components/schemas/SdkDefinition"};

function validate45(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate45.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.name === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.services === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "services"},message:"must have required property '"+"services"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.operations === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "operations"},message:"must have required property '"+"operations"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
for(const key0 in data){
if(!(((key0 === "name") || (key0 === "services")) || (key0 === "operations"))){
const err3 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.name !== undefined){
let data0 = data.name;
if(typeof data0 === "string"){
if(!pattern11.test(data0)){
const err4 = {instancePath:instancePath+"/name",schemaPath:"engine.json#/components/schemas/SdkName/pattern",keyword:"pattern",params:{pattern: "^[a-z][a-z0-9-]{0,62}$"},message:"must match pattern \""+"^[a-z][a-z0-9-]{0,62}$"+"\""};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
else {
const err5 = {instancePath:instancePath+"/name",schemaPath:"engine.json#/components/schemas/SdkName/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.services !== undefined){
let data1 = data.services;
if(Array.isArray(data1)){
if(data1.length > 100){
const err6 = {instancePath:instancePath+"/services",schemaPath:"#/properties/services/maxItems",keyword:"maxItems",params:{limit: 100},message:"must NOT have more than 100 items"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(data1.length < 1){
const err7 = {instancePath:instancePath+"/services",schemaPath:"#/properties/services/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
const len0 = data1.length;
for(let i0=0; i0<len0; i0++){
let data2 = data1[i0];
if(typeof data2 === "string"){
if(func1(data2) > 200){
const err8 = {instancePath:instancePath+"/services/" + i0,schemaPath:"#/properties/services/items/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
if(!pattern12.test(data2)){
const err9 = {instancePath:instancePath+"/services/" + i0,schemaPath:"#/properties/services/items/pattern",keyword:"pattern",params:{pattern: "^[^=]+=[^=]+$"},message:"must match pattern \""+"^[^=]+=[^=]+$"+"\""};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
else {
const err10 = {instancePath:instancePath+"/services/" + i0,schemaPath:"#/properties/services/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
}
else {
const err11 = {instancePath:instancePath+"/services",schemaPath:"#/properties/services/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.operations !== undefined){
let data3 = data.operations;
if(Array.isArray(data3)){
if(data3.length > 5000){
const err12 = {instancePath:instancePath+"/operations",schemaPath:"#/properties/operations/maxItems",keyword:"maxItems",params:{limit: 5000},message:"must NOT have more than 5000 items"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
if(data3.length < 1){
const err13 = {instancePath:instancePath+"/operations",schemaPath:"#/properties/operations/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
const len1 = data3.length;
for(let i1=0; i1<len1; i1++){
let data4 = data3[i1];
if(typeof data4 === "string"){
if(func1(data4) > 300){
const err14 = {instancePath:instancePath+"/operations/" + i1,schemaPath:"#/properties/operations/items/maxLength",keyword:"maxLength",params:{limit: 300},message:"must NOT have more than 300 characters"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
if(!pattern13.test(data4)){
const err15 = {instancePath:instancePath+"/operations/" + i1,schemaPath:"#/properties/operations/items/pattern",keyword:"pattern",params:{pattern: "^[^=]+=.+$"},message:"must match pattern \""+"^[^=]+=.+$"+"\""};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
else {
const err16 = {instancePath:instancePath+"/operations/" + i1,schemaPath:"#/properties/operations/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
}
else {
const err17 = {instancePath:instancePath+"/operations",schemaPath:"#/properties/operations/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
}
else {
const err18 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
validate45.errors = vErrors;
return errors === 0;
}
validate45.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};


function validate44(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="body-planSdk" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate44.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(!(validate45(data, {instancePath,parentData,parentDataProperty,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate45.errors : vErrors.concat(validate45.errors);
errors = vErrors.length;
}
validate44.errors = vErrors;
return errors === 0;
}
validate44.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

export const publishSdk = validate47;
const schema70 = {"$id":"body-publishSdk","$ref":"engine.json#/components/schemas/SdkDefinition"};

function validate48(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
let vErrors = null;
let errors = 0;
const evaluated0 = validate48.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.name === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "name"},message:"must have required property '"+"name"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.services === undefined){
const err1 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "services"},message:"must have required property '"+"services"+"'"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(data.operations === undefined){
const err2 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "operations"},message:"must have required property '"+"operations"+"'"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
for(const key0 in data){
if(!(((key0 === "name") || (key0 === "services")) || (key0 === "operations"))){
const err3 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.name !== undefined){
let data0 = data.name;
if(typeof data0 === "string"){
if(!pattern11.test(data0)){
const err4 = {instancePath:instancePath+"/name",schemaPath:"engine.json#/components/schemas/SdkName/pattern",keyword:"pattern",params:{pattern: "^[a-z][a-z0-9-]{0,62}$"},message:"must match pattern \""+"^[a-z][a-z0-9-]{0,62}$"+"\""};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
else {
const err5 = {instancePath:instancePath+"/name",schemaPath:"engine.json#/components/schemas/SdkName/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.services !== undefined){
let data1 = data.services;
if(Array.isArray(data1)){
if(data1.length > 100){
const err6 = {instancePath:instancePath+"/services",schemaPath:"#/properties/services/maxItems",keyword:"maxItems",params:{limit: 100},message:"must NOT have more than 100 items"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(data1.length < 1){
const err7 = {instancePath:instancePath+"/services",schemaPath:"#/properties/services/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
const len0 = data1.length;
for(let i0=0; i0<len0; i0++){
let data2 = data1[i0];
if(typeof data2 === "string"){
if(func1(data2) > 200){
const err8 = {instancePath:instancePath+"/services/" + i0,schemaPath:"#/properties/services/items/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
if(!pattern12.test(data2)){
const err9 = {instancePath:instancePath+"/services/" + i0,schemaPath:"#/properties/services/items/pattern",keyword:"pattern",params:{pattern: "^[^=]+=[^=]+$"},message:"must match pattern \""+"^[^=]+=[^=]+$"+"\""};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
else {
const err10 = {instancePath:instancePath+"/services/" + i0,schemaPath:"#/properties/services/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
}
else {
const err11 = {instancePath:instancePath+"/services",schemaPath:"#/properties/services/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.operations !== undefined){
let data3 = data.operations;
if(Array.isArray(data3)){
if(data3.length > 5000){
const err12 = {instancePath:instancePath+"/operations",schemaPath:"#/properties/operations/maxItems",keyword:"maxItems",params:{limit: 5000},message:"must NOT have more than 5000 items"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
if(data3.length < 1){
const err13 = {instancePath:instancePath+"/operations",schemaPath:"#/properties/operations/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
const len1 = data3.length;
for(let i1=0; i1<len1; i1++){
let data4 = data3[i1];
if(typeof data4 === "string"){
if(func1(data4) > 300){
const err14 = {instancePath:instancePath+"/operations/" + i1,schemaPath:"#/properties/operations/items/maxLength",keyword:"maxLength",params:{limit: 300},message:"must NOT have more than 300 characters"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
if(!pattern13.test(data4)){
const err15 = {instancePath:instancePath+"/operations/" + i1,schemaPath:"#/properties/operations/items/pattern",keyword:"pattern",params:{pattern: "^[^=]+=.+$"},message:"must match pattern \""+"^[^=]+=.+$"+"\""};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
else {
const err16 = {instancePath:instancePath+"/operations/" + i1,schemaPath:"#/properties/operations/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
}
else {
const err17 = {instancePath:instancePath+"/operations",schemaPath:"#/properties/operations/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
}
else {
const err18 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
validate48.errors = vErrors;
return errors === 0;
}
validate48.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};


function validate47(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="body-publishSdk" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate47.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(!(validate48(data, {instancePath,parentData,parentDataProperty,rootData,dynamicAnchors}))){
vErrors = vErrors === null ? validate48.errors : vErrors.concat(validate48.errors);
errors = vErrors.length;
}
validate47.errors = vErrors;
return errors === 0;
}
validate47.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

export const createSdkToken = validate50;
const schema73 = {"$id":"body-createSdkToken","type":"object","additionalProperties":false,"properties":{"expiresAt":{"type":["string","null"],"format":"date-time"},"readOnly":{"type":"boolean","description":"true: the token calls only read-only operations; any other call is refused with ENGINE_FORBIDDEN_OPERATION before anything is sent."}}};

function validate50(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="body-createSdkToken" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate50.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
for(const key0 in data){
if(!((key0 === "expiresAt") || (key0 === "readOnly"))){
const err0 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.expiresAt !== undefined){
let data0 = data.expiresAt;
if((typeof data0 !== "string") && (data0 !== null)){
const err1 = {instancePath:instancePath+"/expiresAt",schemaPath:"#/properties/expiresAt/type",keyword:"type",params:{type: schema73.properties.expiresAt.type},message:"must be string,null"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(typeof data0 === "string"){
if(!(formats0.validate(data0))){
const err2 = {instancePath:instancePath+"/expiresAt",schemaPath:"#/properties/expiresAt/format",keyword:"format",params:{format: "date-time"},message:"must match format \""+"date-time"+"\""};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
}
if(data.readOnly !== undefined){
if(typeof data.readOnly !== "boolean"){
const err3 = {instancePath:instancePath+"/readOnly",schemaPath:"#/properties/readOnly/type",keyword:"type",params:{type: "boolean"},message:"must be boolean"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
}
else {
const err4 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
validate50.errors = vErrors;
return errors === 0;
}
validate50.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};

export const createExecution = validate51;
const schema74 = {"$id":"body-createExecution","type":"object","required":["operation"],"additionalProperties":false,"properties":{"operation":{"type":"string","minLength":1,"maxLength":300,"pattern":"^[^\\p{Cc}\\p{Cs}]*$","description":"Public operation ID (`<service>.<provider operationId>`)."},"input":{"type":"object","additionalProperties":true,"description":"The operation's parameters by name, and its request body under `body`."},"pagination":{"type":"object","additionalProperties":true,"description":"Physical operations: `{ maxPages: N }` (see PaginationBound). Unified operations: keyed by\ntarget, `{ <target>: { maxPages: N } }`. Checked by the Engine before any dispatch.\n"},"selectors":{"type":"object","additionalProperties":true,"description":"Physical operations: Selectors. Unified operations: keyed by target, `{ <target>: Selectors }`.\n"},"targets":{"type":"array","description":"Unified operations only; the exact binding steps to run (required).","items":{"type":"string","maxLength":64},"maxItems":32},"idempotencyKey":{"type":"string","description":"The call's idempotency key, as the `Idempotency-Key` header gives it (one or the other, or\nboth the same): the same key and request within 24 hours answers the first call's answer.\n","minLength":1,"maxLength":200,"pattern":"^[\\x21-\\x7e]+$"}}};
const pattern45 = new RegExp("^[\\x21-\\x7e]+$", "u");

function validate51(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="body-createExecution" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate51.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.operation === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "operation"},message:"must have required property '"+"operation"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
for(const key0 in data){
if(!((((((key0 === "operation") || (key0 === "input")) || (key0 === "pagination")) || (key0 === "selectors")) || (key0 === "targets")) || (key0 === "idempotencyKey"))){
const err1 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.operation !== undefined){
let data0 = data.operation;
if(typeof data0 === "string"){
if(func1(data0) > 300){
const err2 = {instancePath:instancePath+"/operation",schemaPath:"#/properties/operation/maxLength",keyword:"maxLength",params:{limit: 300},message:"must NOT have more than 300 characters"};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
if(func1(data0) < 1){
const err3 = {instancePath:instancePath+"/operation",schemaPath:"#/properties/operation/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(!pattern7.test(data0)){
const err4 = {instancePath:instancePath+"/operation",schemaPath:"#/properties/operation/pattern",keyword:"pattern",params:{pattern: "^[^\\p{Cc}\\p{Cs}]*$"},message:"must match pattern \""+"^[^\\p{Cc}\\p{Cs}]*$"+"\""};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
else {
const err5 = {instancePath:instancePath+"/operation",schemaPath:"#/properties/operation/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.input !== undefined){
let data1 = data.input;
if(data1 && typeof data1 == "object" && !Array.isArray(data1)){
}
else {
const err6 = {instancePath:instancePath+"/input",schemaPath:"#/properties/input/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.pagination !== undefined){
let data2 = data.pagination;
if(data2 && typeof data2 == "object" && !Array.isArray(data2)){
}
else {
const err7 = {instancePath:instancePath+"/pagination",schemaPath:"#/properties/pagination/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.selectors !== undefined){
let data3 = data.selectors;
if(data3 && typeof data3 == "object" && !Array.isArray(data3)){
}
else {
const err8 = {instancePath:instancePath+"/selectors",schemaPath:"#/properties/selectors/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.targets !== undefined){
let data4 = data.targets;
if(Array.isArray(data4)){
if(data4.length > 32){
const err9 = {instancePath:instancePath+"/targets",schemaPath:"#/properties/targets/maxItems",keyword:"maxItems",params:{limit: 32},message:"must NOT have more than 32 items"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
const len0 = data4.length;
for(let i0=0; i0<len0; i0++){
let data5 = data4[i0];
if(typeof data5 === "string"){
if(func1(data5) > 64){
const err10 = {instancePath:instancePath+"/targets/" + i0,schemaPath:"#/properties/targets/items/maxLength",keyword:"maxLength",params:{limit: 64},message:"must NOT have more than 64 characters"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
else {
const err11 = {instancePath:instancePath+"/targets/" + i0,schemaPath:"#/properties/targets/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
}
else {
const err12 = {instancePath:instancePath+"/targets",schemaPath:"#/properties/targets/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data.idempotencyKey !== undefined){
let data6 = data.idempotencyKey;
if(typeof data6 === "string"){
if(func1(data6) > 200){
const err13 = {instancePath:instancePath+"/idempotencyKey",schemaPath:"#/properties/idempotencyKey/maxLength",keyword:"maxLength",params:{limit: 200},message:"must NOT have more than 200 characters"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
if(func1(data6) < 1){
const err14 = {instancePath:instancePath+"/idempotencyKey",schemaPath:"#/properties/idempotencyKey/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
if(!pattern45.test(data6)){
const err15 = {instancePath:instancePath+"/idempotencyKey",schemaPath:"#/properties/idempotencyKey/pattern",keyword:"pattern",params:{pattern: "^[\\x21-\\x7e]+$"},message:"must match pattern \""+"^[\\x21-\\x7e]+$"+"\""};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
else {
const err16 = {instancePath:instancePath+"/idempotencyKey",schemaPath:"#/properties/idempotencyKey/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
}
else {
const err17 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
validate51.errors = vErrors;
return errors === 0;
}
validate51.evaluated = {"props":true,"dynamicProps":false,"dynamicItems":false};
